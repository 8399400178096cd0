"""The catalogue of built-in rule ids, and where each kind of reason comes from.

A rule id is a contract: agents, the ledger, golden files and people's scripts match on it,
so every id Bastion writes is listed here once, with its ``Origin``. The origin says *who*
decided — a policy rule, the mode, a person, a limit — and is what the permanent-refusal
marker and the ledger's resolver are read from (``Reason.origin``), instead of each reader
decoding rule-id prefixes on its own. Families of ids with a variable part (``rule[3]``,
``mode.read-only``, ``grant.exact``) are listed by prefix.

Imports nothing: ``policy.decision`` (imported everywhere) depends on it.
"""

from __future__ import annotations

from enum import StrEnum


class Origin(StrEnum):
    """Who decided: the kind of stage or actor behind a reason."""

    RULE = "rule"  # a [[rule]] of the policy
    LIST = "list"  # an allow or deny list of the policy ([paths], [commands], [network])
    HARDLINE = "hardline"  # a built-in nothing overrides
    MODE = "mode"  # the mode's default or its hard limit
    CEILING = "ceiling"  # the [ceiling]
    BUILTIN = "builtin"  # another built-in check of the engine (roots, readers, installs)
    DEFAULT = "default"  # the approval default: nothing else decided
    PERSON = "person"  # a person answered (the queue, a confirmation)
    CALLBACK = "callback"  # the caller's own code answered (on_permission)
    TIMEOUT = "timeout"  # nobody answered in time
    CANCEL = "cancel"  # the request was cancelled
    GRANT = "grant"  # a standing grant
    LIMIT = "limit"  # a [limits] budget
    BREAKER = "breaker"  # the repeat-failure breaker
    ERROR = "error"  # nothing could be decided safely: always a denial

    @property
    def soft(self) -> bool:
        """An answer to the question, not a refusal by the policy: no permanent marker."""
        return self in _SOFT

    @property
    def block(self) -> bool:
        """A refusal by the mode or the ceiling (``[policy-blocked]``), not by a rule."""
        return self in (Origin.MODE, Origin.CEILING)


#: The approval default when nobody can be asked (its wording differs when it follows a cause).
NON_INTERACTIVE_DEFAULT = "approval.non_interactive_default"
#: The rules that deny only because nobody can be asked: a standing grant a person made
#: answers a call they deny (bastion.runtime.asks.would_ask).
NOBODY_TO_ASK: frozenset[str] = frozenset({NON_INTERACTIVE_DEFAULT, "install.non-interactive"})

_SOFT = frozenset({Origin.DEFAULT, Origin.PERSON, Origin.CALLBACK, Origin.TIMEOUT, Origin.CANCEL})

#: Every built-in rule id with a fixed spelling.
BUILT_IN: dict[str, Origin] = {
    # the engine, by family
    "call.invalid": Origin.ERROR,
    "call.unknown-family": Origin.ERROR,
    "internal-error": Origin.ERROR,
    "engine.empty": Origin.ERROR,
    "paths.invalid": Origin.ERROR,
    "paths.symlink-loop": Origin.ERROR,
    "paths.roots": Origin.BUILTIN,
    "paths.outside-roots": Origin.BUILTIN,
    "paths.hard-link": Origin.BUILTIN,
    "paths.allow_read": Origin.LIST,
    "paths.allow_write": Origin.LIST,
    "paths.deny_read": Origin.LIST,
    "paths.deny_write": Origin.LIST,
    "commands.allow": Origin.LIST,
    "commands.deny": Origin.LIST,
    "network.allow_hosts": Origin.LIST,
    "network.deny_hosts": Origin.LIST,
    "network.allow_private": Origin.LIST,
    "network.private": Origin.BUILTIN,
    "network.unlisted": Origin.BUILTIN,
    "network.parse": Origin.ERROR,
    "network.resolve": Origin.ERROR,
    "network.scheme": Origin.BUILTIN,
    "shell.too-long": Origin.BUILTIN,
    "shell.undecidable": Origin.BUILTIN,
    "shell.dynamic": Origin.BUILTIN,
    "shell.dynamic-path": Origin.BUILTIN,
    "shell.not-a-reader": Origin.BUILTIN,
    "shell.contained-code": Origin.BUILTIN,  # workspace code, allowed because it runs contained
    "shell.startup-writable": Origin.BUILTIN,
    "shell.git-config": Origin.BUILTIN,
    "shell.module-shadow": Origin.BUILTIN,
    "shell.git-place": Origin.BUILTIN,
    "shell.glob-option": Origin.BUILTIN,
    "shell.hg-config": Origin.BUILTIN,
    "shell.reach-budget": Origin.BUILTIN,
    "shell.reach-outside": Origin.BUILTIN,
    "shell.toolchain": Origin.BUILTIN,  # a workspace file chooses the toolchain that runs
    "shell.rc-file": Origin.BUILTIN,  # an option file where a program runs decides what it does
    "shell.jq-modules": Origin.BUILTIN,  # a jq program's import/include reads what it names
    "code.unsandboxed": Origin.BUILTIN,
    "install.confirm": Origin.BUILTIN,
    "install.non-interactive": Origin.DEFAULT,  # nobody to ask: soft, a grant answers it
    "install.registry": Origin.BUILTIN,  # the install tool's egress: its manager's registry
    "tools.detect": Origin.BUILTIN,  # detect_tools: a lookup on PATH, nothing runs
    "exec.hosts-only": Origin.BUILTIN,  # a contained run's proxy: the decision's hosts only
    "exec.approved-host": Origin.BUILTIN,  # a proxy: a host of the request a person approved
    "exec.agent-model-api": Origin.BUILTIN,  # a contained agent's proxy: its model API
    "db.delete": Origin.BUILTIN,
    "mcp.no-rule": Origin.BUILTIN,
    "mcp.destructive": Origin.BUILTIN,
    "agent.plan": Origin.BUILTIN,
    "agent.configuration": Origin.BUILTIN,
    "delegation.ceiling": Origin.BUILTIN,
    "delegation.looser": Origin.BUILTIN,
    # the approval layer and the runtime
    "approval.interactive_default": Origin.DEFAULT,
    "approval.non_interactive_default": Origin.DEFAULT,
    "approval.person": Origin.PERSON,
    "approval.confirmed": Origin.PERSON,
    "approval.uncontained": Origin.PERSON,  # approved to run as written, outside the sandbox
    "approval.callback": Origin.CALLBACK,
    "approval.timeout": Origin.TIMEOUT,
    "approval.cancelled": Origin.CANCEL,
    "limits.calls_per_minute": Origin.LIMIT,
    "limits.max_calls_per_turn": Origin.LIMIT,
    "limits.max_turn_duration": Origin.LIMIT,
    "breaker.hard-reject-repeat": Origin.BREAKER,
    "breaker.repeat-failure": Origin.BREAKER,
    "audit.unavailable": Origin.ERROR,
    "state.unavailable": Origin.ERROR,
    # the policy lifecycle
    "policy.invalid": Origin.ERROR,
    "policy.reload-failed": Origin.ERROR,
    # the entry points and the contained runner
    "mcp.pin-changed": Origin.BUILTIN,
    "mcp.unknown-tool": Origin.BUILTIN,
    "exec.contained": Origin.BUILTIN,
    "exec.uncontainable": Origin.BUILTIN,  # [exec] contain wants a sandbox this machine cannot give
    "egress.connection": Origin.BUILTIN,
    "egress.error": Origin.ERROR,
    "egress.hold": Origin.BUILTIN,
    "egress.resolve": Origin.ERROR,
}

#: Families of ids with a variable part: ``rule[N]``, ``mode.<mode>``, ``hardline.<class>``…
FAMILIES: tuple[tuple[str, Origin], ...] = (
    ("rule[", Origin.RULE),
    ("hardline.", Origin.HARDLINE),
    ("mode.", Origin.MODE),
    ("ceiling.", Origin.CEILING),
    ("grant.", Origin.GRANT),
    ("limits.", Origin.LIMIT),
    ("breaker.", Origin.BREAKER),
    ("approval.", Origin.DEFAULT),
)


def origin_of(rule_id: str) -> Origin:
    """The origin of a rule id; one this catalogue does not know is a built-in check."""
    found = BUILT_IN.get(rule_id)
    if found is not None:
        return found
    for prefix, origin in FAMILIES:
        if rule_id.startswith(prefix):
            return origin
    return Origin.BUILTIN


def known(rule_id: str) -> bool:
    """Is ``rule_id`` in the catalogue, exactly or as a member of a family?"""
    return rule_id in BUILT_IN or any(rule_id.startswith(prefix) for prefix, _ in FAMILIES)
