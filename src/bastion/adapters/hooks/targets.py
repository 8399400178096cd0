"""Where each agent keeps its hook settings, and the entries Bastion adds there.

Every entry Bastion writes carries the command ``… bastion… hook AGENT …``: that string is
how ``install`` finds its own entries again (idempotent) and how ``uninstall`` removes
exactly them. The command runs through ``sh -c '… || exit 2'`` so a crash, a kill or a
missing executable still ends in exit 2, which every agent here treats as a block.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bastion.adapters.hooks.protocol import (
    OUTCOME_EVENTS,
    POST_TOOL_USE,
    POST_TOOL_USE_FAILURE,
    SESSION_END,
    STOP,
    SUBAGENT_STOP,
)

DEFAULT_TIMEOUT = 60  # seconds the agent waits for the hook; a parked ASK ends 5 s earlier
#: Claude Code's reports of what became of an ASK handed to its prompt (hooks/after_tool).
CLAUDE_REPORTS = (POST_TOOL_USE, POST_TOOL_USE_FAILURE, STOP, SUBAGENT_STOP, SESSION_END)

#: Claude Code ``permissions.deny`` entries mirroring Bastion's hardline rules, so a hook
#: that fails to start still leaves the worst calls blocked by Claude itself.
CLAUDE_DENY_MIRROR: tuple[str, ...] = (
    "Read(~/.ssh/**)",
    "Edit(~/.ssh/**)",
    "Write(~/.ssh/**)",
    "Read(~/.aws/**)",
    "Edit(~/.aws/**)",
    "Read(~/.gnupg/**)",
    "Edit(~/.gnupg/**)",
    "Read(~/.kube/**)",
    "Read(~/.netrc)",
    "Read(~/.git-credentials)",
    "Edit(~/.config/bastion/**)",
    "Write(~/.config/bastion/**)",
    "Edit(~/.local/state/bastion/**)",
    "Write(~/.local/state/bastion/**)",
    "Bash(rm -rf /)",
    "Bash(rm -rf /*)",
    "Bash(rm -rf ~)",
    "Bash(rm -rf ~/*)",
    "Bash(sudo rm -rf /*)",
    "Bash(mkfs:*)",
    "Bash(dd if=* of=/dev/*)",
)


def bastion_executable() -> str:
    """The absolute path of the installed ``bastion`` entry point."""
    beside = os.path.join(os.path.dirname(sys.executable), "bastion")
    if os.access(beside, os.X_OK):
        return os.path.abspath(beside)
    found = shutil.which("bastion")
    return os.path.abspath(found) if found else os.path.abspath(sys.argv[0])


#: What starts the installed hook: a program's path (``bastion``), or a command's words.
Launcher = str | tuple[str, ...]


def hook_launcher() -> Launcher:
    """This interpreter, without ``site``, running ``fastpath``: ≈6 ms less per tool call
    than the ``bastion`` script (see that module). The interpreter's path is kept as it is
    (a virtualenv's ``python`` is a link that its ``pyvenv.cfg`` beside it gives meaning)."""
    if not sys.executable:  # an embedded interpreter: the entry point then
        return bastion_executable()
    # Named, not imported: fastpath leads to the client, the client to the decider, and on to here.
    launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fastpath.py")
    return (os.path.abspath(sys.executable), "-S", launcher)


def hook_command(agent: str, executable: Launcher, *, timeout: int, event: str | None = None) -> str:
    program = shlex.quote(executable) if isinstance(executable, str) else shlex.join(executable)
    inner = f"{program} hook {agent} --timeout {timeout} --autostart"
    if event:
        inner += f" --event {event}"
    # A report (PostToolUse, Stop…) blocks nothing: exit 2 on Stop would make Claude go on.
    fallback = " || exit 0" if event in OUTCOME_EVENTS else " || exit 2"
    return f"sh -c {shlex.quote(inner + fallback)}"


def is_bastion_command(command: Any, agent: str) -> bool:
    return isinstance(command, str) and f" hook {agent}" in command and "bastion" in command


@dataclass(frozen=True, slots=True)
class Target:
    agent: str
    path: str
    #: Adds Bastion's entries to a settings document (a fresh copy) and returns it.
    add: Callable[[dict[str, Any], Launcher, int], dict[str, Any]]
    #: Removes Bastion's entries; returns the document.
    remove: Callable[[dict[str, Any]], dict[str, Any]]
    notes: tuple[str, ...] = ()


def _groups(doc: dict[str, Any], *keys: str) -> list[Any]:
    node = doc
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = {}
            node[key] = child
        node = child
    groups = node.get(keys[-1])
    if not isinstance(groups, list):
        groups = []
        node[keys[-1]] = groups
    return groups


def _strip(doc: dict[str, Any], agent: str, *keys: str, field: str = "command") -> dict[str, Any]:
    """Drop Bastion's handlers under ``keys``; drop groups and maps left empty by that."""
    node: Any = doc
    for key in keys[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, dict) or not isinstance(node.get(keys[-1]), list):
        return doc
    kept = []
    for group in node[keys[-1]]:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            hooks = [
                h
                for h in group["hooks"]
                if not (isinstance(h, dict) and is_bastion_command(h.get(field), agent))
            ]
            if not hooks and group["hooks"]:
                continue
            group = {**group, "hooks": hooks}
        elif isinstance(group, dict) and is_bastion_command(group.get(field), agent):
            continue
        kept.append(group)
    if kept:
        node[keys[-1]] = kept
    else:
        del node[keys[-1]]
    parent: Any = doc
    for key in keys[:-2]:
        parent = parent.get(key)
    if len(keys) >= 2 and isinstance(parent, dict) and parent.get(keys[-2]) == {}:
        del parent[keys[-2]]
    return doc


def _claude_style(
    agent: str, event_key: str, *, ms: bool, matcher: str | None, events: tuple[str, ...] = ()
) -> tuple[Callable[..., dict[str, Any]], Callable[[dict[str, Any]], dict[str, Any]]]:
    def add(doc: dict[str, Any], exe: Launcher, timeout: int) -> dict[str, Any]:
        doc = remove(doc)
        for key, event in ((event_key, None), *((e, e) for e in events)):
            handler: dict[str, Any] = {
                "type": "command",
                "command": hook_command(agent, exe, timeout=timeout, event=event),
                "timeout": timeout * 1000 if ms else timeout,
            }
            if agent in ("gemini", "qwen"):
                handler["name"] = "bastion"
            group: dict[str, Any] = {"hooks": [handler]}
            if matcher is not None:
                group = {"matcher": matcher, **group}
            _groups(doc, "hooks", key).append(group)
        return doc

    def remove(doc: dict[str, Any]) -> dict[str, Any]:
        for key in (event_key, *events):
            doc = _strip(doc, agent, "hooks", key)
        return doc

    return add, remove


def _claude_add_mirror(add: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def wrapped(doc: dict[str, Any], exe: Launcher, timeout: int) -> dict[str, Any]:
        doc = add(doc, exe, timeout)
        deny = _groups(doc, "permissions", "deny")
        deny.extend(rule for rule in CLAUDE_DENY_MIRROR if rule not in deny)
        return doc

    return wrapped


def _copilot() -> tuple[Callable[..., dict[str, Any]], Callable[[dict[str, Any]], dict[str, Any]]]:
    def add(doc: dict[str, Any], exe: Launcher, timeout: int) -> dict[str, Any]:
        doc = remove(doc)
        doc.setdefault("version", 1)
        _groups(doc, "hooks", "preToolUse").append(
            {"type": "command", "bash": hook_command("copilot", exe, timeout=timeout), "timeoutSec": timeout}
        )
        return doc

    def remove(doc: dict[str, Any]) -> dict[str, Any]:
        return _strip(doc, "copilot", "hooks", "preToolUse", field="bash")

    return add, remove


CODEX_TRUST_NOTE = (
    "Codex skips hooks nobody has trusted, silently. Start `codex` in this project, type "
    "/hooks, and trust the `bastion hook codex` entry (Codex records the trust by the hook's "
    "hash; re-trust after `bastion install codex` changes it). Automation you control may "
    "instead pass --dangerously-bypass-hook-trust. `bastion doctor` cannot see Codex's "
    "trust store: it proves the hook answers, not that Codex runs it."
)

#: Measured with Codex 0.171.0: its own sandbox (read-only or workspace-write) forbids the
#: namespaces bubblewrap needs, so a rewritten call fails there (exit 126, "bubblewrap cannot
#: create a sandbox here") instead of running; the hook input does not say which sandbox runs.
CODEX_NESTING_NOTE = (
    "Bastion rewrites each shell call Codex is allowed to run into its own sandbox, and "
    "Codex's sandbox cannot host it (nested bubblewrap is refused): start Codex with "
    "--sandbox danger-full-access so Bastion's sandbox replaces Codex's, or set "
    '[exec] contain = "off" to keep Codex\'s sandbox alone.'
)


def target_for(agent: str, *, scope: str, cwd: str, env: Mapping[str, str]) -> Target:
    home = env.get("HOME") or os.path.expanduser("~")
    project = scope == "project"
    if agent == "claude":
        add, remove = _claude_style(
            "claude", "PreToolUse", ms=False, matcher="*", events=("PermissionRequest", *CLAUDE_REPORTS)
        )
        folder = os.path.join(cwd if project else home, ".claude")
        return Target(agent, os.path.join(folder, "settings.json"), _claude_add_mirror(add), remove)
    if agent == "gemini":
        add, remove = _claude_style("gemini", "BeforeTool", ms=True, matcher="*")
        folder = os.path.join(cwd if project else home, ".gemini")
        return Target(agent, os.path.join(folder, "settings.json"), add, remove)
    if agent == "qwen":
        add, remove = _claude_style("qwen", "PreToolUse", ms=True, matcher="*")
        folder = os.path.join(cwd if project else home, ".qwen")
        return Target(agent, os.path.join(folder, "settings.json"), add, remove)
    if agent == "codex":
        add, remove = _claude_style("codex", "PreToolUse", ms=False, matcher=None)
        folder = (
            os.path.join(cwd, ".codex")
            if project
            else (env.get("CODEX_HOME") or os.path.join(home, ".codex"))
        )
        return Target(
            agent, os.path.join(folder, "hooks.json"), add, remove, (CODEX_TRUST_NOTE, CODEX_NESTING_NOTE)
        )
    if agent == "copilot":
        if not project:
            raise ValueError(
                "Copilot CLI reads hooks from the repository's .github/hooks only: use --project"
            )
        add, remove = _copilot()
        return Target(agent, os.path.join(cwd, ".github", "hooks", "bastion.json"), add, remove)
    raise ValueError(f"no settings file to install into for {agent!r}")
