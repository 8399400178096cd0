"""The immutable Policy the engine evaluates against (built by ``policy.merge``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bastion.policy.ceiling import Ceiling
from bastion.policy.globs import GlobSet
from bastion.policy.hardline import Hardline
from bastion.policy.kinds import Mode, RuleAction
from bastion.policy.network import NetworkRules
from bastion.policy.pathchecks import PathChecks
from bastion.policy.rules import RuleMatcher

if TYPE_CHECKING:
    from bastion.shell.patterns import CommandPattern


@dataclass(frozen=True, slots=True)
class McpServerArgs:
    """``[mcp.servers.NAME]``: which argument keys carry paths and URLs (read by the MCP
    decider, bastion.policy.mcp_args)."""

    paths: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pattern:
    """A ``[commands]`` entry, compiled, with where it was written."""

    text: str
    source: str
    command: CommandPattern


@dataclass(frozen=True, slots=True)
class Rule:
    index: int  # 1-based position among all [[rule]]s
    tool: str
    pattern: str | None
    action: RuleAction
    reason: str
    source: str
    matcher: RuleMatcher
    base: str  # folder relative examples and globs anchor at
    match: tuple[str, ...] = ()
    not_match: tuple[str, ...] = ()
    args: dict[str, str] | None = None  # mcp only: argument key → glob on its value

    def __post_init__(self) -> None:
        # The enum, whoever builds the rule: a string "allow" must never miss ``is ALLOW``.
        object.__setattr__(self, "action", RuleAction(self.action))

    @property
    def rule_id(self) -> str:
        return f"rule[{self.index}]"


@dataclass(frozen=True, slots=True)
class Policy:
    """What the gate reads to decide. The settings of the other stages (``[exec]``,
    ``[limits]``, ``[audit]``, ``[gateway]``, ``ask_via``, ``state_url``,
    ``[second_opinion]``) are typed values of their own packages, loaded beside it
    (bastion.configuration.Configuration)."""

    mode: Mode
    mode_source: str
    workspace: tuple[str, ...]  # absolute roots, read-write
    read_roots: tuple[str, ...]  # workspace + trusted roots
    write_roots: tuple[str, ...]  # workspace + rw trusted roots
    credentials_dir: str
    state_dir: str
    home: str
    interactive_default: str
    non_interactive_default: str
    approval_source: str
    ttl_seconds: float
    allow_read: GlobSet
    allow_write: GlobSet
    command_allow: tuple[Pattern, ...]
    command_deny: tuple[Pattern, ...]
    network: NetworkRules
    rules: tuple[Rule, ...]
    ceiling: Ceiling | None
    ceiling_source: str  # where the (lowest) [ceiling] was set
    hardline: Hardline
    path_checks: PathChecks
    mcp_servers: dict[str, McpServerArgs]  # [mcp.servers.NAME]: argument keys to check
    sources: tuple[str, ...]  # policy files applied, in order
    warnings: tuple[str, ...] = field(default=())
    #: ``enforce = false`` (shadow mode): calls are decided and recorded, and allowed; see
    #: bastion.policy.shadow. Only a trusted layer may turn enforcement off.
    enforce: bool = True
    enforce_source: str = "built-in"
    #: ``enabled = [...]``: the tool names offered to the model; None: every tool.
    enabled: tuple[str, ...] | None = None
    #: ``shell_in_read_only = false``: read-only mode runs no shell command at all.
    shell_in_read_only: bool = True

    def __post_init__(self) -> None:
        # The enum, whoever builds the policy (``replace(policy, mode="read-only")`` too): a
        # mode that compared unequal to every member would fall through to the loosest branch.
        object.__setattr__(self, "mode", Mode(self.mode))
