"""``bastion install pi``: pi has no hook settings, it loads TypeScript extensions, so install
writes Bastion's (``pi_extension.ts``, shipped as package data) where pi discovers them —
``.pi/extensions/bastion.ts`` in the project, or ``extensions/bastion.ts`` in pi's agent
folder (``$PI_CODING_AGENT_DIR``, else ``~/.pi/agent``) for ``--user`` (pi 0.73.1
``config.js`` ``getAgentDir``, ``docs/extensions.md`` "Extension Locations"). The file carries
the hook's command line, written at install; the extension runs it once per tool call.

Like the settings installs it prints a diff, keeps a backup of a file it replaces, changes
nothing on a second run, and never overwrites a ``bastion.ts`` it did not write.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources

from bastion.adapters.hooks.targets import Launcher
from bastion.errors import BastionError

FILE_NAME = "bastion.ts"
TEMPLATE = "pi_extension.ts"
#: The template's first line: how install, uninstall and doctor know the file is Bastion's.
MARKER = "// Bastion's permission gate for pi"
_HOOK_LINE = re.compile(r"^const HOOK: string\[\] = (\[.*\]);$", re.M)
#: pi ignores the extension folders when started with these (``--no-extensions``).
NOT_LOADED_NOTE = (
    "pi loads the extension at start-up: a pi started with --no-extensions (-ne) runs without "
    "Bastion, and an extension file that fails to load stops pi before any call (pi 0.73.1)."
)
Print = Callable[[str], None]
Check = tuple[str, bool, str]
#: ``probe(command, agent, cwd)``: the installed command denies a call every policy denies.
Probe = Callable[[str, str, str], tuple[bool, str]]
#: The hook input ``bastion doctor`` sends: pi's event for a call every policy denies.
PROBE_EVENT = {
    "toolName": "bash",
    "toolCallId": "bastion-doctor",
    "input": {"command": "rm -rf /"},
    "hasUI": False,
}
#: The command the extension registers: pi lists it, with the file it came from.
COMMAND = "bastion"
LOAD_CHECK_TIMEOUT = 30.0


class PiInstallError(BastionError):
    pass


@dataclass(frozen=True, slots=True)
class Extension:
    path: str
    text: str


def extension_path(*, scope: str, cwd: str, env: Mapping[str, str]) -> str:
    if scope == "project":
        return os.path.join(cwd, ".pi", "extensions", FILE_NAME)
    home = env.get("HOME") or os.path.expanduser("~")
    agent_dir = env.get("PI_CODING_AGENT_DIR") or os.path.join(home, ".pi", "agent")
    if agent_dir == "~" or agent_dir.startswith("~/"):
        agent_dir = home + agent_dir[1:]  # as pi's expandTildePath reads it
    return os.path.join(agent_dir, "extensions", FILE_NAME)


def hook_argv(executable: Launcher, *, timeout: int) -> list[str]:
    """The command the extension runs per call (no shell: it maps a crash to a block itself)."""
    program = [executable] if isinstance(executable, str) else list(executable)
    return [*program, "hook", "pi", "--timeout", str(timeout), "--autostart"]


def render(executable: Launcher, *, timeout: int) -> str:
    template = resources.files("bastion.adapters.hooks").joinpath(TEMPLATE).read_text(encoding="utf-8")
    if not template.startswith(MARKER):
        raise PiInstallError(f"the packaged {TEMPLATE} is not Bastion's extension")
    hook = json.dumps(hook_argv(executable, timeout=timeout), ensure_ascii=False)
    text = template.replace("__BASTION_HOOK__", hook).replace("__BASTION_TIMEOUT_MS__", str(timeout * 1000))
    if "__BASTION_" in text or installed_hook(text) is None:
        raise PiInstallError(f"the packaged {TEMPLATE} has a placeholder install cannot fill")
    return text


def installed_hook(text: str) -> list[str] | None:
    """The hook command an installed extension runs, or None when ``text`` is not Bastion's."""
    if not text.startswith(MARKER):
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
        raise PiInstallError(f"cannot read {path}: {exc}") from exc


def _diff(path: str, before: str, after: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(True), after.splitlines(True), f"{path} (before)", f"{path} (after)"
        )
    )


def install(
    *,
    scope: str,
    cwd: str,
    env: Mapping[str, str],
    executable: Launcher,
    timeout: int,
    dry_run: bool = False,
    out: Print = print,
) -> Extension:
    path = extension_path(scope=scope, cwd=cwd, env=env)
    before = read(path)
    after = render(executable, timeout=timeout)
    if before is not None and installed_hook(before) is None:
        raise PiInstallError(f"{path} exists and is not Bastion's extension; nothing was changed")
    if before == after:
        out(f"{path}: Bastion's extension is already installed; nothing to change")
        return Extension(path, after)
    out(_diff(path, before or "", after))
    if dry_run:
        out("(dry run: nothing written)")
        return Extension(path, after)
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
    out(f"installed: pi now asks Bastion before every tool call ({path}).")
    out(NOT_LOADED_NOTE)
    return Extension(path, after)


def uninstall(
    *, scope: str, cwd: str, env: Mapping[str, str], dry_run: bool = False, out: Print = print
) -> str:
    path = extension_path(scope=scope, cwd=cwd, env=env)
    before = read(path)
    if before is None or installed_hook(before) is None:
        out(f"{path}: no Bastion extension to remove")
        return path
    out(_diff(path, before, ""))
    if dry_run:
        out("(dry run: nothing written)")
        return path
    os.unlink(path)
    out("uninstalled: pi no longer asks Bastion")
    return path


def loaded_by_pi(path: str, *, pi: str, cwd: str, env: Mapping[str, str]) -> tuple[bool, str]:
    """Ask pi itself whether it loads the extension at ``path`` when started in ``cwd``: its
    RPC mode lists every extension command with the file it came from (``get_commands``, no
    model needed). This starts pi, which loads the project's extensions as pi always does."""
    request = json.dumps({"id": "bastion-doctor", "type": "get_commands"}) + "\n"
    try:
        done = subprocess.run(
            [pi, "--mode", "rpc", "--no-session", "--offline"],
            input=request,
            capture_output=True,
            text=True,
            timeout=LOAD_CHECK_TIMEOUT,
            cwd=cwd,
            env={**env, "PI_OFFLINE": "1"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"pi did not list its extensions ({exc})"
    for line in done.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or message.get("id") != "bastion-doctor":
            continue
        data = message.get("data")
        commands = data.get("commands") if isinstance(data, dict) else None
        sources = {
            os.path.realpath(str(c["sourceInfo"].get("path")))
            for c in commands or []
            if isinstance(c, dict) and c.get("name") == COMMAND and isinstance(c.get("sourceInfo"), dict)
        }
        if os.path.realpath(path) in sources:
            return True, "pi loads it"
        return False, (
            "pi does not load it from here (an index.ts or package.json in the extensions folder, an "
            "ignore file or a settings override hides it): remove what hides it, or bastion install pi --user"
        )
    return False, f"pi did not list its extensions (exit {done.returncode}): {done.stderr.strip()[-200:]}"


def doctor_checks(cwd: str, env: Mapping[str, str], probe: Probe) -> list[Check]:
    """For each installed Bastion extension: its hook starts, denies a probe, and pi loads it."""
    checks: list[Check] = []
    for scope in ("project", "user"):
        path = extension_path(scope=scope, cwd=cwd, env=env)
        try:
            text = read(path)
        except PiInstallError as exc:
            checks.append((f"hook pi ({path})", False, str(exc)))
            continue
        hook = installed_hook(text) if text is not None else None
        if hook is None:
            continue
        name = f"hook pi ({path})"
        script = hook[2] if hook[1:2] == ["-S"] and len(hook) > 2 else None
        if not os.access(hook[0], os.X_OK):
            checks.append((name, False, f"{hook[0]} is not executable: re-run bastion install pi"))
            continue
        if script is not None and not os.path.isfile(script):
            checks.append((name, False, f"{script} is missing: re-run bastion install pi"))
            continue
        ok, detail = probe(shlex.join(hook), "pi", cwd)
        pi = shutil.which("pi", path=env.get("PATH"))
        if ok and pi is None:
            detail += "; pi is not on PATH, so whether pi loads the file was not checked"
        elif ok and pi is not None:
            ok, loaded = loaded_by_pi(path, pi=pi, cwd=cwd, env=env)
            detail = f"{detail}; {loaded}"
        checks.append((name, ok, detail))
    return checks
