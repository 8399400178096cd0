"""An MCP tool that runs a shell command: what the command does is judged as the shell
family would judge it.

A terminal or shell server (``run_command {"command": "cat ~/.netrc"}``) runs what it is given
in its own process, outside any sandbox Bastion sets up. Its argument named like a command
(``command``, ``cmd``, ``command_line``, ``shell_command``…) is analysed by the same classifier
as an agent's shell call, and every denial that earns (a credential read or print, the
catastrophic, Bastion's own state, the metadata address) is the MCP call's own. Only denials:
whether the tool may run at all is still the MCP rules' and the mode's to say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Reason
from bastion.policy.shell_policy import decide_analysis
from bastion.policy.stages import Context
from bastion.policy.verdict import Assembly

#: Argument keys (lower case, without ``_`` and ``-``) whose value is a shell command line.
COMMAND_KEYS = frozenset({"command", "cmd", "commandline", "shellcommand", "bashcommand", "shell"})


def command_values(arguments: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (key, command line) pairs of the tool's top-level arguments."""
    return [
        (key, value)
        for key, value in arguments.items()
        if isinstance(key, str)
        and isinstance(value, str)
        and value.strip()
        and key.lower().replace("_", "").replace("-", "") in COMMAND_KEYS
    ]


def command_denials(ctx: Context, call: ToolCall, arguments: Mapping[str, Any], name: str) -> list[Reason]:
    """The denials each command-line argument earns, as the shell family decides it."""
    denials: list[Reason] = []
    for key, line in command_values(arguments):
        inner = Assembly(approval_default=Reason(Decision.ASK, "approval.default", "built-in", "", ""))
        shell_call = replace(call, tool="shell", args={"command": line})
        decide_analysis(ctx, shell_call, inner, ctx.analyze_shell(line))
        for subject in inner.subjects:
            override = (subject.override,) if subject.override is not None else ()
            denials.extend(
                Reason(Decision.DENY, r.rule, r.source, f"{name} {key}: {r.matched}"[:200], r.message)
                for r in (*subject.hard, *override)
                if r.decision is Decision.DENY
            )
    return list(dict.fromkeys(denials))
