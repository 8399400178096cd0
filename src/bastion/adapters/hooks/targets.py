"""Where each agent keeps its hook settings, and the entries Bastion adds there.

Every entry Bastion writes carries the command ``… bastion… hook AGENT …``: that string is
how ``install`` finds its own entries again (idempotent) and how ``uninstall`` removes
exactly them. The command runs through ``sh -c '… || exit 2'`` so a crash, a kill or a
missing executable still ends in exit 2, which every agent here treats as a block (a
report's, ``PostToolUse``/``Stop``…, ends in exit 0: it has nothing to block).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bastion.adapters.hooks.hand_off_marks import guarded_report
from bastion.agents.model import Hooks, SettingsStyle
from bastion.agents.registry import agent, hooks_of

DEFAULT_TIMEOUT = 60  # seconds the agent waits for the hook; a parked ASK ends 5 s earlier

#: Claude Code ``permissions.deny`` entries mirroring Bastion's hardline rules (its record).
CLAUDE_DENY_MIRROR = hooks_of("claude").deny_mirror


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


def hook_command(
    agent: str, executable: Launcher, *, timeout: int, event: str | None = None, blocks: bool = True
) -> str:
    """``blocks=False``: a report (``PostToolUse``, ``Stop``…) falls back to exit 0, since
    exit 2 on Claude Code's ``Stop`` would make it go on with the turn, and starts the hook
    only while a hand-off awaits a report (``hand_off_marks``: no Python on most calls)."""
    program = shlex.quote(executable) if isinstance(executable, str) else shlex.join(executable)
    inner = f"{program} hook {agent} --timeout {timeout} --autostart"
    if event:
        inner += f" --event {event}"
    if not blocks:
        return guarded_report(inner)
    return f"sh -c {shlex.quote(inner + ' || exit 2')}"


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
    #: The agent's own deny rules ``add`` puts beside the hook (``uninstall`` removes them).
    mirror: tuple[str, ...] = ()


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
    agent: str, hooks: Hooks
) -> tuple[Callable[..., dict[str, Any]], Callable[[dict[str, Any]], dict[str, Any]]]:
    """``hooks.EVENT[] = {matcher?, hooks: [handler]}``, one group per event."""
    events = (hooks.event, *hooks.extra_events, *hooks.report_events)

    def add(doc: dict[str, Any], exe: Launcher, timeout: int) -> dict[str, Any]:
        doc = remove(doc)
        for key in events:
            event = None if key == hooks.event else key
            blocks = key not in hooks.report_events
            handler: dict[str, Any] = {
                "type": "command",
                "command": hook_command(agent, exe, timeout=timeout, event=event, blocks=blocks),
                "timeout": timeout * 1000 if hooks.timeout_ms else timeout,
            }
            if hooks.handler_name is not None:
                handler["name"] = hooks.handler_name
            group: dict[str, Any] = {"hooks": [handler]}
            if hooks.matcher is not None:
                group = {"matcher": hooks.matcher, **group}
            _groups(doc, "hooks", key).append(group)
        return doc

    def remove(doc: dict[str, Any]) -> dict[str, Any]:
        for key in events:
            doc = _strip(doc, agent, "hooks", key)
        return doc

    return add, remove


def _add_mirror(add: Callable[..., dict[str, Any]], mirror: tuple[str, ...]) -> Callable[..., dict[str, Any]]:
    def wrapped(doc: dict[str, Any], exe: Launcher, timeout: int) -> dict[str, Any]:
        doc = add(doc, exe, timeout)
        deny = _groups(doc, "permissions", "deny")
        deny.extend(rule for rule in mirror if rule not in deny)
        return doc

    return wrapped


def _copilot_style(
    agent: str, hooks: Hooks
) -> tuple[Callable[..., dict[str, Any]], Callable[[dict[str, Any]], dict[str, Any]]]:
    """``{version: 1, hooks.EVENT[] = {type: "command", bash, timeoutSec}}``."""

    def add(doc: dict[str, Any], exe: Launcher, timeout: int) -> dict[str, Any]:
        doc = remove(doc)
        doc.setdefault("version", 1)
        _groups(doc, "hooks", hooks.event).append(
            {"type": "command", "bash": hook_command(agent, exe, timeout=timeout), "timeoutSec": timeout}
        )
        return doc

    def remove(doc: dict[str, Any]) -> dict[str, Any]:
        return _strip(doc, agent, "hooks", hooks.event, field="bash")

    return add, remove


#: How each settings style writes and removes Bastion's entries.
_STYLES = {SettingsStyle.CLAUDE: _claude_style, SettingsStyle.COPILOT: _copilot_style}


def target_for(name: str, *, scope: str, cwd: str, env: Mapping[str, str]) -> Target:
    """The settings file of ``name`` at ``scope`` (its registry record) and how to edit it."""
    record = agent(name)
    if record.hooks is None:
        raise ValueError(f"no settings file to install into for {name!r}")
    hooks = record.hooks
    style = _STYLES.get(hooks.style)
    if style is None:
        path = hook_file(name, scope=scope, cwd=cwd, env=env)
        raise ValueError(f"{name} has no settings file: Bastion writes its own file ({path})")
    add, remove = style(name, hooks)
    if hooks.deny_mirror:
        add = _add_mirror(add, hooks.deny_mirror)
    path = hook_file(name, scope=scope, cwd=cwd, env=env)
    return Target(name, path, add, remove, hooks.install_notes, hooks.deny_mirror)


def hook_file(name: str, *, scope: str, cwd: str, env: Mapping[str, str]) -> str:
    """Where the record puts Bastion's hook for ``name`` at ``scope``: the settings file, or
    Bastion's own file (``SettingsStyle.OWN_FILE``)."""
    hooks = hooks_of(name)
    home = env.get("HOME") or os.path.expanduser("~")
    if scope == "project":
        folder = os.path.join(cwd, hooks.folder)
    elif hooks.project_only is not None:
        raise ValueError(hooks.project_only)
    else:
        moved = env.get(hooks.user_folder_env) if hooks.user_folder_env else None
        if moved is not None and (moved == "~" or moved.startswith("~/")):
            moved = home + moved[1:]  # as the agent expands it (pi's PI_CODING_AGENT_DIR)
        folder = moved or _user_folder(hooks.user_folder or hooks.folder, home, env)
    return os.path.join(folder, hooks.file)


def _user_folder(folder: str, home: str, env: Mapping[str, str]) -> str:
    """``~/FOLDER``; a folder under ``.config`` follows ``XDG_CONFIG_HOME`` when it is set."""
    config = env.get("XDG_CONFIG_HOME")
    if config and os.path.isabs(config) and folder.startswith(".config/"):
        return os.path.join(config, folder[len(".config/") :])
    return os.path.join(home, folder)
