"""Where Bastion's state lives: ``open_stores(state_url, state_dir)`` gives every store,
on the embedded SQLite files by default or on a shared PostgreSQL database."""

from bastion.state.factory import (
    ENV_URL,
    StateUrlError,
    Stores,
    ensure_schema,
    open_stores,
    open_stores_from_env,
    state_url_for,
)

__all__ = ["ENV_URL", "StateUrlError", "Stores", "ensure_schema", "open_stores", "open_stores_from_env",
           "state_url_for"]
