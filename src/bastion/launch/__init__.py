"""Launch native agent CLIs under a permission ceiling (flags read from their own help)."""

from __future__ import annotations

from bastion.launch.agents import KNOWN, AgentSpec, spec_for
from bastion.launch.helptext import HelpOption, HelpText, parse_help
from bastion.launch.launcher import (
    BANNER,
    NOT_STARTED,
    AgentReport,
    EventSink,
    LaunchRefused,
    Outcome,
    Ports,
    launch,
    no_events,
    resume,
    survey,
    survey_known,
)
from bastion.launch.mapping import Mapping, map_ceiling
from bastion.launch.sessions import JsonSessionStore, Run, Session, SessionNotFound, SessionStore
from bastion.launch.validate import BYPASS, NO_CEILING, Permissions, Validation, check

__all__ = [
    "BANNER",
    "BYPASS",
    "KNOWN",
    "NOT_STARTED",
    "NO_CEILING",
    "AgentReport",
    "AgentSpec",
    "EventSink",
    "HelpOption",
    "HelpText",
    "JsonSessionStore",
    "LaunchRefused",
    "Mapping",
    "Outcome",
    "Permissions",
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
