"""Launch native agent CLIs under a permission ceiling (flags read from their own help).

The names below load on first use: the package's own modules import each other, and an
``__init__`` that imported them all would sit in a cycle with every one of them.
"""

from __future__ import annotations

from typing import Any

_WHERE = {
    "BANNER": "bastion.launch.launcher",
    "BYPASS": "bastion.policy.ceiling",
    "KNOWN": "bastion.launch.agents",
    "NOT_STARTED": "bastion.launch.launcher",
    "NO_CEILING": "bastion.policy.ceiling",
    "AgentReport": "bastion.launch.launcher",
    "AgentSpec": "bastion.launch.agents",
    "Ceiling": "bastion.policy.ceiling",
    "EventSink": "bastion.launch.launcher",
    "HelpOption": "bastion.launch.helptext",
    "HelpText": "bastion.launch.helptext",
    "JsonSessionStore": "bastion.launch.sessions",
    "LaunchRefused": "bastion.launch.launcher",
    "Mapping": "bastion.launch.mapping",
    "Outcome": "bastion.launch.launcher",
    "Ports": "bastion.launch.launcher",
    "Run": "bastion.launch.sessions",
    "Session": "bastion.launch.sessions",
    "SessionNotFound": "bastion.launch.sessions",
    "SessionStore": "bastion.launch.sessions",
    "Validation": "bastion.launch.validate",
    "check": "bastion.launch.validate",
    "launch": "bastion.launch.launcher",
    "map_ceiling": "bastion.launch.mapping",
    "no_events": "bastion.launch.launcher",
    "parse_help": "bastion.launch.helptext",
    "resume": "bastion.launch.launcher",
    "spec_for": "bastion.launch.agents",
    "survey": "bastion.launch.launcher",
    "survey_known": "bastion.launch.launcher",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.launch' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "BANNER",
    "BYPASS",
    "KNOWN",
    "NOT_STARTED",
    "NO_CEILING",
    "AgentReport",
    "AgentSpec",
    "Ceiling",
    "EventSink",
    "HelpOption",
    "HelpText",
    "JsonSessionStore",
    "LaunchRefused",
    "Mapping",
    "Outcome",
    "Ports",
    "Run",
    "Session",
    "SessionNotFound",
    "SessionStore",
    "Validation",
    "check",
    "launch",
    "map_ceiling",
    "no_events",
    "parse_help",
    "resume",
    "spec_for",
    "survey",
    "survey_known",
]
