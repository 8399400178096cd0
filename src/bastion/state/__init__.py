"""Where Bastion's state lives: ``open_stores(state_url, state_dir)`` gives every store,
on the embedded SQLite files by default or on a shared PostgreSQL database.

The names load on first use: the stores (``state.pins``, ``postgres.*``) import modules of
this package, and an ``__init__`` importing the factory would sit in a cycle with them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.state.factory import (
        ENV_URL,
        StateUrlError,
        Stores,
        ensure_schema,
        open_stores,
        open_stores_from_env,
        state_url_for,
    )


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'bastion.state' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module("bastion.state.factory"), name)
    globals()[name] = value
    return value


__all__ = [
    "ENV_URL",
    "StateUrlError",
    "Stores",
    "ensure_schema",
    "open_stores",
    "open_stores_from_env",
    "state_url_for",
]
