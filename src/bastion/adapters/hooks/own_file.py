"""Install, remove and check Bastion's own hook file, for an agent that loads code instead of
hook settings (``SettingsStyle.OWN_FILE`` in its record: pi's TypeScript extensions,
opencode's JavaScript plugins).

The record names the file (``hooks.folder``/``hooks.file``, ``user_folder`` for ``--user``,
which follows ``XDG_CONFIG_HOME`` under ``.config``), its ``template`` (package data of this
package) and ``file_kind``, what the agent calls such a file. Install fills the template's two
slots -- ``__BASTION_HOOK__`` with the hook's command as a JSON array, and
``__BASTION_TIMEOUT_MS__`` -- and writes the file whole. A slot in double quotes is a JS string:
it gets the JSON array as a string literal (and the timeout as a bare number).

The template's first line is the marker: a file whose first line differs is not Bastion's, and
install never overwrites it, nor does uninstall remove it. Install keeps a backup of a file it
replaces and changes nothing on a second run. Doctor fails a file that is not exactly the
template rendered with the command it carries (the agent may skip a file that fails to load,
silently), then probes the command and, when the agent's translation module can ask, checks
the agent loads the file.

The file runs the hook once per tool call and maps every failure to a block itself, so the
command has no ``sh -c '… || exit 2'`` wrapper.
"""

from __future__ import annotations

import difflib
import itertools
import json
import os
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Protocol, runtime_checkable

from bastion.adapters.hooks.entry import protocol_for
from bastion.adapters.hooks.targets import Launcher, hook_file
from bastion.agents.model import SettingsStyle
from bastion.agents.registry import hook_names, hooks_of
from bastion.errors import BastionError

HOOK_SLOT = "__BASTION_HOOK__"
TIMEOUT_SLOT = "__BASTION_TIMEOUT_MS__"
Print = Callable[[str], None]
Check = tuple[str, bool, str]
#: ``probe(command, agent, cwd)``: the installed command denies a call every policy denies.
Probe = Callable[[str, str, str], tuple[bool, str]]


class OwnFileError(BastionError, ValueError):
    pass


@runtime_checkable
class LoadCheck(Protocol):
    """A translation module that can ask its agent whether it loads a file (``doctor``)."""

    def loads(self, path: str, *, cwd: str, env: Mapping[str, str]) -> tuple[bool, str]: ...


@dataclass(frozen=True, slots=True)
class OwnFile:
    agent: str
    path: str
    text: str


def own_file_agents() -> tuple[str, ...]:
    """The agents whose Bastion hook is a file of Bastion's own (their records' ``OWN_FILE``)."""
    return tuple(n for n in hook_names() if hooks_of(n).style is SettingsStyle.OWN_FILE)


def template(agent: str) -> str:
    name = hooks_of(agent).template
    if name is None:
        raise OwnFileError(f"{agent}: the record names no template")
    return resources.files("bastion.adapters.hooks").joinpath(*name.split("/")).read_text(encoding="utf-8")


def marker(agent: str) -> str:
    return template(agent).partition("\n")[0]


def _kind(agent: str) -> str:
    return hooks_of(agent).file_kind


def hook_words(agent: str, executable: Launcher, timeout: int) -> list[str]:
    """The command the file runs per call: the hook launcher (``targets.hook_launcher``) and
    ``hook AGENT --timeout S --autostart``, as the settings-file agents' command has them."""
    program = [executable] if isinstance(executable, str) else list(executable)
    return [*program, "hook", agent, "--timeout", str(timeout), "--autostart"]


def timeout_of(words: Sequence[str]) -> int:
    """The ``--timeout`` in a hook command's words (0 when it has none)."""
    for flag, value in itertools.pairwise(words):
        if flag == "--timeout" and value.isdigit():
            return int(value)
    return 0


def _hook_line(source: str) -> tuple[str, str, bool] | None:
    """The template's line holding the hook slot: what precedes and follows the slot, and
    whether the slot is a JS string (in double quotes)."""
    for line in source.splitlines():
        before, slot, after = line.partition(HOOK_SLOT)
        if slot:
            quoted = before.endswith('"') and after.startswith('"')
            return (before[:-1], after[1:], True) if quoted else (before, after, False)
    return None


def render(agent: str, words: Sequence[str], timeout: int) -> str:
    """The template with the hook command and its timeout in milliseconds filled in."""
    source = template(agent)
    slot = _hook_line(source)
    name = hooks_of(agent).template
    damaged = OwnFileError(f"{agent}: the {name} template shipped with Bastion is damaged")
    if slot is None or TIMEOUT_SLOT not in source:
        raise damaged
    literal = json.dumps(list(words), ensure_ascii=False)
    hook = (f'"{HOOK_SLOT}"', json.dumps(literal, ensure_ascii=False)) if slot[2] else (HOOK_SLOT, literal)
    text = (
        source.replace(*hook)
        .replace(f'"{TIMEOUT_SLOT}"', str(int(timeout) * 1000))
        .replace(TIMEOUT_SLOT, str(int(timeout) * 1000))
    )
    if "__BASTION_" in text or hook_of(agent, text) != list(words):
        raise damaged
    return text


def hook_of(agent: str, text: str) -> list[str] | None:
    """The hook command a file runs, or None when ``text`` is not a well-formed Bastion file."""
    slot = _hook_line(template(agent))
    if slot is None or text.partition("\n")[0] != marker(agent):
        return None
    before, after, quoted = slot
    for line in text.splitlines():
        if line.startswith(before) and line.endswith(after) and len(line) >= len(before) + len(after):
            try:
                words = json.loads(line[len(before) : len(line) - len(after)])
                if quoted:
                    words = json.loads(words) if isinstance(words, str) else None
            except ValueError:
                return None
            if isinstance(words, list) and words and all(isinstance(w, str) for w in words):
                return words
            return None
    return None


def read(agent: str, path: str) -> str | None:
    """The file's text; None when there is none. Raises when someone else's file is there."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise OwnFileError(f"cannot read {path}: {exc}") from exc
    if text.partition("\n")[0] != marker(agent):
        raise OwnFileError(f"{path} is not Bastion's {_kind(agent)}; move it away first, nothing was changed")
    return text


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
) -> OwnFile:
    """Write (or refresh) Bastion's file; idempotent."""
    path = hook_file(agent, scope=scope, cwd=cwd, env=env)
    before = read(agent, path)
    words = hook_words(agent, executable, timeout)
    after = render(agent, words, timeout)
    if before == after:
        out(f"{path}: Bastion's {_kind(agent)} is already installed; nothing to change")
        return OwnFile(agent, path, after)
    if dry_run:
        out(f"{path}: would {'write' if before is None else 'update'} Bastion's {_kind(agent)}")
        if before is not None:
            out(_diff(path, before, after))
        out("(dry run: nothing written)")
        return OwnFile(agent, path, after)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if before is not None:
        backup = f"{path}.bastion-backup-{time.strftime('%Y%m%d-%H%M%S')}"
        with open(backup, "w", encoding="utf-8") as handle:
            handle.write(before)
    tmp = f"{path}.bastion-tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(after)
    os.replace(tmp, path)
    if before is None:
        out(f"wrote {path}")
    else:
        out(f"updated {path}")
        out(_diff(path, before, after))
        out(f"backup: {backup}")
    out(f"installed: {agent} now asks Bastion before every tool call ({shlex.join(words)}).")
    for note in hooks_of(agent).install_notes:
        out(note)
    return OwnFile(agent, path, after)


def uninstall(
    agent: str, *, scope: str, cwd: str, env: Mapping[str, str], dry_run: bool = False, out: Print = print
) -> OwnFile:
    """Remove Bastion's file; never a file that is not Bastion's."""
    path = hook_file(agent, scope=scope, cwd=cwd, env=env)
    before = read(agent, path)
    if before is None:
        out(f"{path}: no Bastion {_kind(agent)} to remove")
    elif dry_run:
        out(f"{path}: would be removed (dry run: nothing removed)")
    else:
        os.unlink(path)
        out(f"removed {path}")
        out(f"uninstalled: {agent} no longer asks Bastion")
    return OwnFile(agent, path, before or "")


def installed(agent: str, *, scope: str, cwd: str, env: Mapping[str, str]) -> list[str] | None:
    """The hook command of Bastion's file for ``agent`` at ``scope``, if one is there."""
    text = read(agent, hook_file(agent, scope=scope, cwd=cwd, env=env))
    return hook_of(agent, text) if text is not None else None


def doctor_checks(cwd: str, env: Mapping[str, str], probe: Probe) -> list[Check]:
    """For each file there: it is Bastion's and intact, its hook starts and denies a probe,
    and (when its translation module can ask) the agent loads the file."""
    checks: list[Check] = []
    for agent in own_file_agents():
        protocol = protocol_for(agent)
        load_check = protocol if isinstance(protocol, LoadCheck) else None
        for scope in ("project", "user"):
            try:
                path = hook_file(agent, scope=scope, cwd=cwd, env=env)
            except ValueError:
                continue  # a project-only agent at the user scope
            check = _check(agent, path, cwd, env, probe, load_check)
            if check is not None:
                checks.append(check)
    return checks


def _check(
    agent: str, path: str, cwd: str, env: Mapping[str, str], probe: Probe, load_check: LoadCheck | None
) -> Check | None:
    name = f"hook {agent} ({path})"
    fix = f"re-run bastion install {agent}"
    try:
        text = read(agent, path)
    except OwnFileError as exc:
        return (name, False, str(exc))
    if text is None:
        return None
    words = hook_of(agent, text)
    try:
        intact = words is not None and text == render(agent, words, timeout_of(words))
    except OwnFileError:
        intact = False
    if words is None or not intact:
        return (name, False, f"the {_kind(agent)} file was changed or is damaged: {fix}")
    script = words[2] if words[1:2] == ["-S"] and len(words) > 2 else None
    if not os.access(words[0], os.X_OK):
        return (name, False, f"{words[0]} is not executable: {fix}")
    if script is not None and not os.path.isfile(script):
        return (name, False, f"{script} is missing: {fix}")
    ok, detail = probe(shlex.join(words), agent, cwd)
    if ok and load_check is not None:
        ok, loaded = load_check.loads(path, cwd=cwd, env=env)
        detail = f"{detail}; {loaded}"
    return (name, ok, detail)
