"""The composition root: the engine's decision, standing grants, limits, the repeat-failure
guard, the approval queue and the audit ledger, behind one object (the Gatekeeper).

``keeper`` decides and parks; ``recording`` writes every answer to the ledger before it is
returned. The names load on first use (as in ``bastion.audit``): an ``__init__`` importing
its modules would sit in an import cycle with each of them.
"""

from __future__ import annotations

import asyncio  # tests replace asyncio.run through this name (request_sync's event loop)
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.runtime.asks import would_ask
    from bastion.runtime.keeper import (
        DB_FILE,
        Answer,
        Gatekeeper,
        PermissionCallback,
    )

_NAMES = ("DB_FILE", "Answer", "Gatekeeper", "PermissionCallback", "would_ask")


def __getattr__(name: str) -> Any:
    if name not in _NAMES:
        raise AttributeError(f"module 'bastion.runtime' has no attribute {name!r}")
    import importlib

    module = "bastion.runtime.asks" if name == "would_ask" else "bastion.runtime.keeper"
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "DB_FILE",
    "Answer",
    "Gatekeeper",
    "PermissionCallback",
    "asyncio",
    "would_ask",
]
