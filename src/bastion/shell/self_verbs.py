"""Bastion's own state-changing verbs (hardline *self*): an agent must never answer its own
approvals, grant itself standing permissions, trust a policy or create keys.

Knowledge as data: for each command group the verbs that only read; any other verb of the
group (or one only known at run time) changes Bastion's state.
"""

from __future__ import annotations

from collections.abc import Sequence

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
#: ``--host``/``--write`` included) is contained again by the hook with no host (its writes land
#: in the outer sandbox): not here.
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
