"""Bastion's own state-changing verbs (hardline *self*): an agent must never answer its own
approvals, grant itself standing permissions, trust a policy or create keys.

Knowledge as data: for each command group the verbs that only read; any other verb of the
group (or one only known at run time) changes Bastion's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: group -> verbs that only read. A verb not listed (or unknown) is a state change.
READ_VERBS: dict[str, frozenset[str]] = {
    "approvals": frozenset({"list"}),
    "grants": frozenset({"list", "show"}),
    "policy": frozenset({"test"}),
    "keys": frozenset({"list"}),
    "db": frozenset({"status"}),
    "mcp": frozenset({"proxy", "serve", "pins"}),
    "service": frozenset({"status"}),
}
#: Top-level commands that change Bastion's state (they rewrite agent settings), or act with
#: Bastion's own authority rather than through the agent's hook (``bastion tool read …``).
STATE_COMMANDS = frozenset({"install", "uninstall", "tool"})
#: Commands whose options take away the boundary the gate chose (suite G: ``bastion launch
#: claude --uncontained``). A ``bastion sandbox run`` line the agent writes itself (a hand-off's,
#: ``--host``/``--write`` included) is not here: it is decided by the command it runs
#: (``sandboxed_run``) and contained again by the hook (its writes land in the outer sandbox).
_WIDENING: dict[str, frozenset[str]] = {"launch": frozenset({"--uncontained"})}
_HELP = frozenset({"--help", "-h"})
#: Python modules that are Bastion's CLI (`python -m bastion …`).
MODULES = frozenset(
    {
        "bastion",
        "bastion.adapters.cli",
        "bastion.adapters.cli.main",
        "bastion.adapters.cli.app",
        "bastion.__main__",
    }
)


def self_change(args: Sequence[str | None]) -> str | None:
    """Why ``bastion ARGS`` changes Bastion's own state, or None. ``None`` in ``args`` is a
    word only known at run time."""
    words = [a for a in args if a is None or not a.startswith("-")]
    if any(a in _HELP for a in args):
        return None
    if not words:
        return None
    group = words[0]
    if group is None:
        return "bastion subcommand only known at run time"
    if group in STATE_COMMANDS:
        return f"bastion {group}"
    widened = _WIDENING.get(group)
    if widened is not None and any((a or "").partition("=")[0] in widened for a in args):
        return f"bastion {group} {' '.join(sorted(widened))}: the agent choosing its own boundary"
    verbs = READ_VERBS.get(group)
    if verbs is None:
        return None
    if len(words) < 2:
        return None  # the group alone prints its help
    verb = words[1]
    if verb is None:
        return f"bastion {group} verb only known at run time"
    if verb in verbs:
        return None
    return f"bastion {group} {verb}"


#: ``bastion sandbox run``'s own options; each takes a value (``adapters/cli/sandbox_cmd.py``).
SANDBOX_OPTIONS = frozenset(
    {"--profile", "--host", "--write", "--cwd", "--timeout", "--policy", "--approval", "--hand-off"}
)


@dataclass(frozen=True)
class SandboxedRun:
    """A ``bastion sandbox run … -- COMMAND`` line the agent wrote itself. The hook contains it
    again (its writes land in the outer sandbox), but what it runs is still decided: the
    catastrophic is denied inside it as outside, and the explanation names the command."""

    command: int  # index in the arguments where COMMAND starts
    writes: tuple[str | None, ...]  # the --write values (None: only known at run time)
    cwd: str | None  # the --cwd value, when given ("" when only known at run time)


def sandboxed_run(args: Sequence[str | None]) -> SandboxedRun | None:
    """The command a ``bastion ARGS`` line runs in a sandbox, or None when it runs none (or its
    options are not the ones ``sandbox run`` takes: it then stops with a usage error)."""
    if list(args[:2]) != ["sandbox", "run"]:
        return None
    writes: list[str | None] = []
    cwd: str | None = None
    at = 2
    while at < len(args) and args[at] != "--":
        word = args[at]
        if word is None:
            return None
        name, eq, inline = word.partition("=")
        if name not in SANDBOX_OPTIONS:
            return None
        value: str | None = inline
        if not eq:
            at += 1
            if at >= len(args):
                return None
            value = args[at]
        if name == "--write":
            writes.append(value)
        elif name == "--cwd":
            cwd = value if value is not None else ""
        at += 1
    if at + 1 >= len(args):
        return None
    return SandboxedRun(at + 1, tuple(writes), cwd)
