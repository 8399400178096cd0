"""The HTTP gateway: ``/v1`` JSON API, the live approvals page, API keys and limits.

``GatewaySettings`` imports nothing but the standard library and ``bastion.policy.model``
(the policy loader may use it); the application itself is imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from bastion.adapters.http.settings import GatewaySettings, ServerSettings, is_loopback

_LAZY = {"create_app": "app", "BootRefused": "boot", "check_boot": "boot", "ensure_approver": "boot"}

__all__ = [
    "BootRefused",
    "GatewaySettings",
    "ServerSettings",
    "check_boot",
    "create_app",
    "ensure_approver",
    "is_loopback",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"bastion.adapters.http.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
