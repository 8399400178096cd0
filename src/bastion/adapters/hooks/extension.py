"""Install, remove and check Bastion's own hook file, for an agent that loads code instead of
hook settings (``SettingsStyle.EXTENSION`` in its record: pi's TypeScript extensions).

The record names the file (``hooks.folder``/``hooks.file``, ``user_folder`` for ``--user``)
and its ``template``, package data of this package. Install fills the template's two
placeholders — ``__BASTION_HOOK__`` with the hook's command line as a JSON array, and
``__BASTION_TIMEOUT_MS__`` — and writes the file whole. The template's first line is the
marker: a file whose first line differs is not Bastion's, and install never overwrites it
(nor does uninstall remove it). Like the settings installs it prints a diff, keeps a backup
of a file it replaces and changes nothing on a second run.

The file runs ``HOOK`` once per tool call and maps every failure to a block itself, so the
command has no ``sh -c '… || exit 2'`` wrapper.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Protocol, runtime_checkable

from bastion.adapters.hooks.entry import protocol_for
from bastion.adapters.hooks.targets import Launcher, hook_file
from bastion.agents.model import SettingsStyle
from bastion.agents.registry import hook_names, hooks_of
from bastion.errors import BastionError

_HOOK_LINE = re.compile(r"^const HOOK(?:: string\[\])? = (\[.*\]);$", re.M)
Print = Callable[[str], None]
Check = tuple[str, bool, str]
#: ``probe(command, agent, cwd)``: the installed command denies a call every policy denies.
Probe = Callable[[str, str, str], tuple[bool, str]]


class ExtensionError(BastionError):
    pass


@runtime_checkable
class LoadCheck(Protocol):
    """A translation module that can ask its agent whether it loads a file (``doctor``)."""

    def loads(self, path: str, *, cwd: str, env: Mapping[str, str]) -> tuple[bool, str]: ...


@dataclass(frozen=True, slots=True)
class Extension:
    agent: str
    path: str
    text: str


def extension_agents() -> tuple[str, ...]:
    return tuple(n for n in hook_names() if hooks_of(n).style is SettingsStyle.EXTENSION)


def template(agent: str) -> str:
    name = hooks_of(agent).template
    if name is None:
        raise ExtensionError(f"{agent}: the record names no extension template")
    return resources.files("bastion.adapters.hooks").joinpath(name).read_text(encoding="utf-8")


def marker(agent: str) -> str:
    return template(agent).partition("\n")[0]


def hook_argv(agent: str, executable: Launcher, *, timeout: int) -> list[str]:
    """The command the file runs per call."""
    program = [executable] if isinstance(executable, str) else list(executable)
    return [*program, "hook", agent, "--timeout", str(timeout), "--autostart"]


def render(agent: str, executable: Launcher, *, timeout: int) -> str:
    hook = json.dumps(hook_argv(agent, executable, timeout=timeout), ensure_ascii=False)
    text = (
        template(agent)
        .replace("__BASTION_HOOK__", hook)
        .replace("__BASTION_TIMEOUT_MS__", str(timeout * 1000))
    )
    if "__BASTION_" in text or installed_hook(agent, text) is None:
        raise ExtensionError(f"{agent}: the packaged template has a placeholder install cannot fill")
    return text


def installed_hook(agent: str, text: str) -> list[str] | None:
    """The hook command an installed file runs, or None when ``text`` is not Bastion's."""
    if text.partition("\n")[0] != marker(agent):
        return None
    found = _HOOK_LINE.search(text)
    if found is None:
        return None
    try:
        argv = json.loads(found.group(1))
    except ValueError:
        return None
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        return None
    return argv


def read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExtensionError(f"cannot read {path}: {exc}") from exc


def _diff(path: str, before: str, after: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(True), after.splitlines(True), f"{path} (before)", f"{path} (after)"
        )
    )


def install(
    agent: str,
    *,
    scope: str,
    cwd: str,
    env: Mapping[str, str],
    executable: Launcher,
    timeout: int,
    dry_run: bool = False,
    out: Print = print,
) -> Extension:
    path = hook_file(agent, scope=scope, cwd=cwd, env=env)
    before = read(path)
    after = render(agent, executable, timeout=timeout)
    if before is not None and installed_hook(agent, before) is None:
        raise ExtensionError(f"{path} exists and is not Bastion's extension; nothing was changed")
    if before == after:
        out(f"{path}: Bastion's extension is already installed; nothing to change")
        return Extension(agent, path, after)
    out(_diff(path, before or "", after))
    if dry_run:
        out("(dry run: nothing written)")
        return Extension(agent, path, after)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if before is not None:
        backup = f"{path}.bastion-backup-{time.strftime('%Y%m%d-%H%M%S')}"
        with open(backup, "w", encoding="utf-8") as handle:
            handle.write(before)
        out(f"backup: {backup}")
    tmp = f"{path}.bastion-tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(after)
    os.replace(tmp, path)
    out(f"installed: {agent} now asks Bastion before every tool call ({path}).")
    for note in hooks_of(agent).install_notes:
        out(note)
    return Extension(agent, path, after)


def uninstall(
    agent: str, *, scope: str, cwd: str, env: Mapping[str, str], dry_run: bool = False, out: Print = print
) -> str:
    path = hook_file(agent, scope=scope, cwd=cwd, env=env)
    before = read(path)
    if before is None or installed_hook(agent, before) is None:
        out(f"{path}: no Bastion extension to remove")
        return path
    out(_diff(path, before, ""))
    if dry_run:
        out("(dry run: nothing written)")
        return path
    os.unlink(path)
    out(f"uninstalled: {agent} no longer asks Bastion")
    return path


def installed(agent: str, *, scope: str, cwd: str, env: Mapping[str, str]) -> list[str] | None:
    """The hook command of Bastion's file for ``agent`` at ``scope``, if one is there."""
    text = read(hook_file(agent, scope=scope, cwd=cwd, env=env))
    return installed_hook(agent, text) if text is not None else None


def doctor_checks(cwd: str, env: Mapping[str, str], probe: Probe) -> list[Check]:
    """For each installed file: the hook starts, denies a probe, and (when its translation
    module can ask) the agent loads the file."""
    checks: list[Check] = []
    for agent in extension_agents():
        protocol = protocol_for(agent)
        load_check = protocol if isinstance(protocol, LoadCheck) else None
        for scope in ("project", "user"):
            path = hook_file(agent, scope=scope, cwd=cwd, env=env)
            name = f"hook {agent} ({path})"
            try:
                hook = installed(agent, scope=scope, cwd=cwd, env=env)
            except ExtensionError as exc:
                checks.append((name, False, str(exc)))
                continue
            if hook is None:
                continue
            script = hook[2] if hook[1:2] == ["-S"] and len(hook) > 2 else None
            if not os.access(hook[0], os.X_OK):
                checks.append((name, False, f"{hook[0]} is not executable: re-run bastion install {agent}"))
                continue
            if script is not None and not os.path.isfile(script):
                checks.append((name, False, f"{script} is missing: re-run bastion install {agent}"))
                continue
            ok, detail = probe(shlex.join(hook), agent, cwd)
            if ok and load_check is not None:
                ok, loaded = load_check.loads(path, cwd=cwd, env=env)
                detail = f"{detail}; {loaded}"
            checks.append((name, ok, detail))
    return checks
