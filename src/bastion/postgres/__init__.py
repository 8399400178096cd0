"""PostgreSQL implementations of every Bastion store, so several daemons share one state.

Open them through :func:`bastion.state.open_stores`; the schema comes from
:mod:`bastion.postgres.migrations` (``bastion db upgrade``).
"""
