"""The policy file's schema: every section and key, strict (unknown keys are errors).

These models describe one file as written. ``bastion.policy.compiled`` turns the layered
files into the immutable ``Policy`` the engine evaluates against.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictStr

Mode = Literal["read-only", "ask-before-edit", "workspace", "full-access"]
Action = Literal["allow", "deny", "ask", "classify"]
ApprovalCeiling = Literal["ask_every_action", "ask_for_risky", "never_ask"]
FilesystemCeiling = Literal["read_only", "workspace_write", "unrestricted"]
NetworkCeiling = Literal["denied", "allowed"]


_DURATION = re.compile(r"^\s*(\d+)\s*([smh])\s*$")


def parse_duration(text: str) -> float:
    """``<int>s|m|h`` → seconds."""
    found = _DURATION.match(text)
    if not found:
        raise ValueError(f"bad duration {text!r}: use <int>s, <int>m or <int>h (e.g. '5m')")
    value, unit = int(found.group(1)), found.group(2)
    return float(value * {"s": 1, "m": 60, "h": 3600}[unit])


def _valid_duration(text: str) -> str:
    parse_duration(text)
    return text


#: ``<int>s|m|h`` as written in the file (validated here, converted where it is used).
Duration = Annotated[StrictStr, AfterValidator(_valid_duration)]


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TrustedRoot(Section):
    path: str
    rw: StrictBool = False


class ApprovalSection(Section):
    interactive_default: Literal["ask", "deny"] = "ask"
    non_interactive_default: Literal["deny", "ask"] = "deny"
    ttl: Duration = "5m"


class PathsSection(Section):
    allow_read: tuple[str, ...] = ()
    deny_read: tuple[str, ...] = ("~/.ssh/**", "**/*.pem", "**/*.key", "**/.env")
    allow_write: tuple[str, ...] = ()
    deny_write: tuple[str, ...] = ()


class CommandsSection(Section):
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()


class NetworkSection(Section):
    allow_hosts: tuple[str, ...] = ()
    deny_hosts: tuple[str, ...] = ()
    allow_private: StrictBool = False


class RuleSpec(Section):
    tool: str
    pattern: str | None = None
    action: Action
    reason: str = ""
    match: tuple[str, ...] = ()
    not_match: tuple[str, ...] = ()
    args: dict[StrictStr, StrictStr] | None = None  # mcp: per-argument-key globs


class CeilingSection(Section):
    """Fields left out of a present ``[ceiling]`` mean the strictest value."""

    approval: ApprovalCeiling = "ask_every_action"
    filesystem: FilesystemCeiling = "read_only"
    network: NetworkCeiling = "denied"


class SecretSection(Section):
    """``[exec.secrets.NAME]``: ``approval = "hold"`` keeps it out of the sandbox; the
    egress proxy adds it to requests to ``hosts`` only (bastion.exec.egress)."""

    hosts: tuple[StrictStr, ...] = ()
    approval: Literal["hold"] | None = None


class ExecSection(Section):
    """``[exec]``: runner settings (see bastion.exec.settings.ExecConfig for their meaning)."""

    timeout: float = Field(30.0, gt=0)
    max_output_bytes: int = Field(10_000_000, gt=0)
    max_memory_mb: int = Field(0, ge=0)
    max_cpu_seconds: int = Field(0, ge=0)
    env_allow: tuple[StrictStr, ...] = ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ")
    secrets: tuple[StrictStr, ...] | dict[StrictStr, SecretSection] = ()
    contain: Literal["all", "allowed", "off"] = "all"
    max_processes: int = Field(512, gt=0)
    max_resident_mb: int = Field(4096, ge=0)
    tmp_size_mb: int = Field(512, gt=0)
    seccomp: StrictBool = True
    scan_max_entries: int = Field(200_000, gt=0)
    scan_skip: tuple[StrictStr, ...] = (
        ".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".tox", "target", "dist", "build",
    )  # fmt: skip


class LimitsSection(Section):
    """``[limits]``, per session; 0 (or "0s") turns one off."""

    max_calls_per_turn: int = Field(25, ge=0)
    max_turn_duration: Duration = "5m"
    calls_per_minute: int = Field(0, ge=0)
    breaker_cooldown: Duration = "5m"  # "0s": a tripped breaker never recovers in the session


class AuditSection(Section):
    store_raw_arguments: StrictBool = False


class GatewaySection(Section):
    """``[gateway]``: limits of bastion serve's HTTP API (bastion.adapters.http.settings)."""

    rate_limit_per_minute: int = Field(60, gt=0)
    max_body_bytes: int = Field(65536, gt=0)
    max_command_chars: int = Field(32000, gt=0)
    max_session_id_chars: int = Field(128, gt=0)
    request_timeout: Duration = "120s"
    cors_origins: tuple[StrictStr, ...] = ()
    allow_any_origin: StrictBool = False  # the override: every origin, instead of cors_origins
    cooldown_reply: StrictStr = Field("Please slow down.", min_length=1, max_length=500)


class McpServer(Section):
    """``[mcp.servers.NAME]``: argument keys whose values are paths / URLs to check."""

    paths: tuple[StrictStr, ...] = ()
    urls: tuple[StrictStr, ...] = ()


class McpSection(Section):
    servers: dict[StrictStr, McpServer] = Field(default_factory=dict)


class SecondOpinionSection(Section):
    """``[second_opinion]``: an escalate-only checker (bastion.opinion) asked about calls the
    policy would allow: an argv ``command`` (call JSON on stdin, verdict JSON on stdout) or a
    ``url`` POSTed the same JSON. ``families``/``effects`` choose the calls (empty: all)."""

    command: tuple[StrictStr, ...] | None = None
    url: StrictStr | None = None
    families: tuple[StrictStr, ...] = ()
    effects: tuple[StrictStr, ...] = ()
    timeout: Duration = "10s"


class PolicyFile(Section):
    mode: Mode | None = None
    #: ``false``: no shell command at all in read-only mode, not even a pure reader (the
    #: read-only of the seed forms, which ``bastion policy import`` writes).
    shell_in_read_only: StrictBool | None = None
    workspace: tuple[str, ...] | None = None
    trusted_roots: tuple[str | TrustedRoot, ...] = ()
    credentials_dir: str | None = None
    approval: ApprovalSection | None = None
    paths: PathsSection | None = None
    commands: CommandsSection | None = None
    network: NetworkSection | None = None
    rule: tuple[RuleSpec, ...] = Field(default=())
    ceiling: CeilingSection | None = None
    exec: ExecSection | None = None
    limits: LimitsSection | None = None
    audit: AuditSection | None = None
    ask_via: Literal["agent", "bastion"] | None = None
    gateway: GatewaySection | None = None
    mcp: McpSection | None = None
    state_url: StrictStr | None = None  # postgresql://… for shared state; default SQLite
    #: ``false``: shadow mode — decide and record every call, allow it (hardline still denies).
    enforce: StrictBool | None = None
    #: The tools offered to the model (bastion.policy.enabled); absent: all of them.
    enabled: tuple[StrictStr, ...] | None = None
    second_opinion: SecondOpinionSection | None = None
