"""``bastion install AGENT`` / ``bastion uninstall AGENT`` and the doctor's hook checks.

Install merges Bastion's hook entries into the agent's settings, keeping every other key;
it prints a unified diff, keeps a backup of the file it changes, and is idempotent (a
second run changes nothing). Entries Bastion added to Claude Code's ``permissions.deny``
are listed in ``<state_dir>/hook-installs.json`` so uninstall removes exactly those.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from typing import Any

from bastion.adapters.hooks import own_file
from bastion.adapters.hooks.agent_trust import project_trust
from bastion.adapters.hooks.targets import (
    DEFAULT_TIMEOUT,
    Launcher,
    Target,
    hook_launcher,
    is_bastion_command,
    target_for,
)
from bastion.agents.registry import hook_names, hooks_of
from bastion.errors import BastionError
from bastion.policy.sources import state_dir_from

MANIFEST = "hook-installs.json"
Print = Callable[[str], None]


class InstallError(BastionError):
    pass


def _load(path: str) -> tuple[str, dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return "", {}
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it first, nothing was changed") from exc
    if not isinstance(data, dict):
        raise InstallError(f"{path} does not hold a JSON object; nothing was changed")
    return text, data


def _dump(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _diff(path: str, before: str, after: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(True),
            after.splitlines(True),
            fromfile=f"{path} (before)",
            tofile=f"{path} (after)",
        )
    )


def _write(path: str, before: str, after: str) -> str | None:
    """Back up the current file (if any), then replace it atomically; returns the backup."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    backup = None
    if os.path.exists(path):
        backup = f"{path}.bastion-backup-{time.strftime('%Y%m%d-%H%M%S')}"
        with open(backup, "w", encoding="utf-8") as handle:
            handle.write(before)
    mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o644
    tmp = f"{path}.bastion-tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(after)
    os.replace(tmp, path)
    return backup


def _manifest(env: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    path = os.path.join(state_dir_from(env), MANIFEST)
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        data = {}
    return path, data if isinstance(data, dict) else {}


def _save_manifest(path: str, data: Mapping[str, Any]) -> None:
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, sort_keys=True)


def _warnings(agent: str, doc: Mapping[str, Any]) -> list[str]:
    out = [w.message for w in hooks_of(agent).warnings if w.found_in(doc)]
    if doc.get("disableAllHooks") is True:
        out.append(f"WARNING: disableAllHooks is true: {agent} will not run Bastion's hook.")
    return out


def install(
    agent: str,
    *,
    scope: str = "project",
    cwd: str,
    env: Mapping[str, str],
    dry_run: bool = False,
    timeout: int = DEFAULT_TIMEOUT,
    executable: Launcher | None = None,
    out: Print = print,
) -> Target | own_file.OwnFile:
    if agent in own_file.own_file_agents():  # the agent loads code: Bastion writes its own file
        try:
            return own_file.install(
                agent,
                scope=scope,
                cwd=cwd,
                env=env,
                executable=executable or hook_launcher(),
                timeout=timeout,
                dry_run=dry_run,
                out=out,
            )
        except own_file.OwnFileError as exc:
            raise InstallError(str(exc)) from exc
    target = target_for(agent, scope=scope, cwd=cwd, env=env)
    before, doc = _load(target.path)
    exe = executable or hook_launcher()
    had_deny = set(_deny_list(doc))
    after_doc = target.add(json.loads(json.dumps(doc)), exe, timeout)
    after = _dump(after_doc)
    for line in _warnings(agent, after_doc):
        out(line)
    if after == _dump(doc) and before:
        out(f"{target.path}: Bastion's hook is already installed; nothing to change")
    else:
        out(_diff(target.path, before, after) or f"{target.path}: unchanged")
        if dry_run:
            out("(dry run: nothing written)")
        else:
            backup = _write(target.path, before, after)
            if backup:
                out(f"backup: {backup}")
            added = [r for r in _deny_list(after_doc) if r not in had_deny and r in target.mirror]
            if added:
                path, manifest = _manifest(env)
                entry = manifest.setdefault(target.path, {})
                entry["added_deny"] = sorted(set(entry.get("added_deny", [])) | set(added))
                _save_manifest(path, manifest)
            program = exe if isinstance(exe, str) else shlex.join(exe)
            out(f"installed: {agent} now asks Bastion before every tool call ({program} hook {agent}).")
    trust = project_trust(agent, cwd, env) if scope == "project" else None
    if trust is not None and not trust.trusted:
        out(f"NOT ACTIVE YET: {trust.detail}.")
        out(f"To activate it: {trust.fix}. Until then `bastion doctor` fails.")
    for note in target.notes:
        out(note)
    from bastion.exec.capabilities import uncontained_note

    if (uncontained := uncontained_note(agent)) is not None:
        out(uncontained)
    return target


def uninstall(
    agent: str,
    *,
    scope: str = "project",
    cwd: str,
    env: Mapping[str, str],
    dry_run: bool = False,
    out: Print = print,
) -> Target | own_file.OwnFile:
    if agent in own_file.own_file_agents():
        try:
            return own_file.uninstall(agent, scope=scope, cwd=cwd, env=env, dry_run=dry_run, out=out)
        except own_file.OwnFileError as exc:
            raise InstallError(str(exc)) from exc
    target = target_for(agent, scope=scope, cwd=cwd, env=env)
    before, doc = _load(target.path)
    after_doc = target.remove(json.loads(json.dumps(doc)))
    manifest_path, manifest = _manifest(env)
    added = set(manifest.get(target.path, {}).get("added_deny", []))
    permissions = after_doc.get("permissions")
    if added and isinstance(permissions, dict) and isinstance(permissions.get("deny"), list):
        permissions["deny"] = [r for r in permissions["deny"] if r not in added]
        if not permissions["deny"]:
            del permissions["deny"]
        if not permissions:
            del after_doc["permissions"]
    after = _dump(after_doc)
    if not before or after == _dump(doc):
        out(f"{target.path}: no Bastion hook to remove")
        return target
    out(_diff(target.path, before, after))
    if dry_run:
        out("(dry run: nothing written)")
        return target
    backup = _write(target.path, before, after)
    out(f"backup: {backup}")
    if target.path in manifest:
        del manifest[target.path]
        _save_manifest(manifest_path, manifest)
    out(f"uninstalled: {agent} no longer asks Bastion")
    return target


def _deny_list(doc: Mapping[str, Any]) -> list[str]:
    permissions = doc.get("permissions")
    deny = permissions.get("deny") if isinstance(permissions, dict) else None
    return [r for r in deny if isinstance(r, str)] if isinstance(deny, list) else []


# -- doctor -------------------------------------------------------------------------------


def _commands(agent: str, doc: Any) -> list[str]:
    found: list[str] = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key in ("command", "bash") and is_bastion_command(value, agent):
                found.append(value)
            else:
                found.extend(_commands(agent, value))
    elif isinstance(doc, list):
        for value in doc:
            found.extend(_commands(agent, value))
    return found


def probe(command: str, agent: str, cwd: str, *, limit: float = 10.0) -> tuple[bool, str]:
    """Run the installed command on a call every policy denies: it must deny, in time.

    Doctor only reads: the probe decides in process against a throwaway state dir, so it
    leaves no record in the ledger (and starts no daemon) -- the installed command line, its
    interpreter and the policy are what it checks."""
    payload = {"session_id": "bastion-doctor", "cwd": cwd, **hooks_of(agent).probe}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bastion-doctor-") as scratch:
        env = {
            **os.environ,
            "BASTION_STATE_DIR": scratch,
            "BASTION_HOOK_NO_DAEMON": "1",
            "BASTION_HOOK_AUTOSTART": "0",
        }
        try:
            done = subprocess.run(
                ["sh", "-c", command],
                input=json.dumps(payload),
                capture_output=True,
                text=True,
                timeout=limit,
                cwd=cwd,
                env=env,
            )
        except subprocess.TimeoutExpired:
            return False, f"no answer within {limit:g} s"
    elapsed = time.monotonic() - started
    if done.returncode != 2 or "deny" not in done.stdout:
        return False, f"expected a deny with exit 2, got exit {done.returncode}: {done.stdout.strip()[:200]}"
    return True, f"denies a probe 'rm -rf /' in {elapsed * 1000:.0f} ms"


def _launched_by(command: str) -> tuple[str, str | None]:
    """The program an installed command runs, and the script it gives ``python -S`` (the
    launcher ``hook_launcher`` writes), if any."""
    import shlex

    try:
        words = shlex.split(command)
        inner = shlex.split(words[2] if words[:2] == ["sh", "-c"] and len(words) > 2 else command)
    except ValueError:
        return "", None
    if not inner:
        return "", None
    return inner[0], inner[2] if inner[1:2] == ["-S"] and len(inner) > 2 else None


def _deciding(agent: str, commands: list[str]) -> list[str]:
    """The commands that decide calls: a report's (``--event Stop``…) never denies a probe."""
    reports = hooks_of(agent).report_events
    return [c for c in commands if not any(f"--event {event}" in c for event in reports)]


def hook_checks(policy: Any) -> list[tuple[str, bool, str]]:
    """For each agent whose settings hold Bastion's hook: present, executable, answers right."""
    env = os.environ
    cwd = os.getcwd()
    checks: list[tuple[str, bool, str]] = []
    for agent in hook_names():
        for scope in ("project", "user"):
            with contextlib.suppress(ValueError, InstallError):
                target = target_for(agent, scope=scope, cwd=cwd, env=env)
                _, doc = _load(target.path)
                for command in _deciding(agent, _commands(agent, doc))[:1]:
                    name = f"hook {agent} ({target.path})"
                    exe, script = _launched_by(command)
                    if not os.access(exe, os.X_OK):
                        checks.append(
                            (name, False, f"{exe} is not executable: re-run bastion install {agent}")
                        )
                        continue
                    if script is not None and not os.path.isfile(script):
                        checks.append((name, False, f"{script} is missing: re-run bastion install {agent}"))
                        continue
                    ok, detail = probe(command, agent, cwd)
                    trust = project_trust(agent, cwd, env) if scope == "project" else None
                    if ok and trust is not None and not trust.trusted:
                        ok, detail = False, f"answers, but is skipped: {trust.detail}; {trust.fix}"
                    elif ok and hooks_of(agent).doctor_caveat:
                        detail += f"; {hooks_of(agent).doctor_caveat}"
                    checks.append((name, ok, detail))
    checks += own_file.doctor_checks(cwd, env, probe)
    return checks
