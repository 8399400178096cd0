"""The HTTP gateway: ``/v1`` JSON API, the live approvals page, API keys and limits."""

from bastion.adapters.http.app import create_app
from bastion.adapters.http.boot import BootRefused, check_boot, ensure_approver
from bastion.adapters.http.settings import GatewaySettings, ServerSettings, is_loopback

__all__ = [
    "BootRefused",
    "GatewaySettings",
    "ServerSettings",
    "check_boot",
    "create_app",
    "ensure_approver",
    "is_loopback",
]
