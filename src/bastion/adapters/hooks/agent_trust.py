"""Agents that silently ignore a project's config until the project is trusted.

**Codex** (checked against the real 0.171.0 CLI): project-local ``.codex/`` config — hooks
included — is skipped with only a warning ("Untrusted project-local configuration is
disabled") unless ``$CODEX_HOME/config.toml`` (``~/.codex``) has, for the *project root*
(the nearest ancestor holding ``.git``, else the working directory itself; a trusted parent
does not count)::

    [projects."/abs/path/to/root"]
    trust_level = "trusted"

``trust_level = "untrusted"`` is an explicit refusal. ``codex exec --trust`` (or answering
the trust prompt of the interactive ``codex``) writes that entry.

**Gemini CLI** (checked against the real 0.61.0 CLI): folder trust is on by default; a
project's ``.gemini/settings.json`` is ignored unless ``~/.gemini/trustedFolders.json`` trusts
the folder or ``GEMINI_CLI_TRUST_WORKSPACE=true`` is set when it starts (see
``gemini_trust`` for why ``--skip-trust`` is not the same).

**Qwen Code** and **Copilot CLI**: see ``qwen_trust`` and ``copilot_trust``. Which check an
agent gets is its registry record's ``hooks.trust``.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bastion.agents.model import TrustModel
from bastion.agents.registry import hooks_of


@dataclass(frozen=True, slots=True)
class Trust:
    """Whether the agent will read the project's config, and what to do if not."""

    trusted: bool
    detail: str
    fix: str = ""


def codex_project_root(cwd: str) -> str:
    current = os.path.realpath(cwd)
    probe = current
    while True:
        if os.path.exists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return current
        probe = parent


def codex_config_path(env: Mapping[str, str]) -> str:
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.join(env.get("CODEX_HOME") or os.path.join(home, ".codex"), "config.toml")


def codex_trust(cwd: str, env: Mapping[str, str]) -> Trust:
    root = codex_project_root(cwd)
    config = codex_config_path(env)
    fix = (
        f"start `codex` in {root} and trust the project, run `codex exec --trust -C {root} …` once, "
        f'or add to {config}: [projects."{root}"] trust_level = "trusted"; '
        "or install at user scope instead: bastion install codex --user"
    )
    try:
        with open(config, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        return Trust(
            False,
            f"{config} does not exist: Codex trusts no project, so it skips {root}/.codex/hooks.json",
            fix,
        )
    except (OSError, tomllib.TOMLDecodeError, RecursionError) as exc:
        return Trust(False, f"cannot read {config} ({exc}): Codex's project trust is unknown", fix)
    projects = data.get("projects")
    entry = projects.get(root) if isinstance(projects, dict) else None
    level = entry.get("trust_level") if isinstance(entry, dict) else None
    if level == "trusted":
        return Trust(True, f"Codex trusts {root} ({config})")
    if level == "untrusted":
        return Trust(
            False,
            f"{config} marks {root} untrusted: Codex skips its .codex/hooks.json",
            fix.replace(
                "start `codex`",
                'change trust_level to "trusted" (Codex will not ask '
                "again for an explicitly untrusted project), or start `codex`",
            ),
        )
    return Trust(
        False,
        f"Codex does not trust {root} ({config} has no trust_level for it): it skips "
        f"{root}/.codex/hooks.json with only a warning",
        fix,
    )


def _read_json(path: str) -> object:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def _gemini_home(env: Mapping[str, str]) -> str:
    return env.get("GEMINI_CLI_HOME") or env.get("HOME") or os.path.expanduser("~")


def _folder_trust_enabled(paths: tuple[str, ...], default: bool) -> bool:
    """``security.folderTrust.enabled`` as the last of ``paths`` that sets it (user settings,
    then the system file, which overrides them), else the agent's ``default``."""
    enabled = default
    for path in paths:
        settings = _read_json(path)
        security = settings.get("security") if isinstance(settings, dict) else None
        folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
        value = folder_trust.get("enabled") if isinstance(folder_trust, dict) else None
        if isinstance(value, bool):
            enabled = value
    return enabled


def _covers(rule: str, level: object, folder: str) -> bool:
    """Gemini's rule: TRUST_PARENT on a path trusts that path's parent (and below)."""
    base = os.path.dirname(rule) if level == "TRUST_PARENT" else rule
    base = os.path.realpath(base)
    return folder == base or folder.startswith(base.rstrip("/") + "/")


def _folder_rule(folder: str, trusted_file: str) -> object:
    """The level of the longest rule covering ``folder`` (None when no rule does)."""
    rules = _read_json(trusted_file)
    best: tuple[int, object] | None = None
    for rule, level in rules.items() if isinstance(rules, dict) else ():
        if _covers(str(rule), level, folder) and (best is None or len(str(rule)) > best[0]):
            best = (len(str(rule)), level)
    return None if best is None else best[1]


def gemini_trust(cwd: str, env: Mapping[str, str]) -> Trust:
    """Whether Gemini CLI reads ``<cwd>/.gemini/settings.json`` (and so Bastion's hook).

    Checked against the real 0.61.0 CLI: folder trust is on unless a settings file turns
    it off; an untrusted folder's project settings are dropped. ``--skip-trust`` only sets
    ``GEMINI_CLI_TRUST_WORKSPACE=true`` *after* the settings are read, so the run is trusted
    but the project's hooks are already gone: Bastion never runs. The variable exported
    before ``gemini`` starts does load them."""
    folder = os.path.realpath(cwd)
    home = _gemini_home(env)
    trusted_file = env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or os.path.join(
        home, ".gemini", "trustedFolders.json"
    )
    fix = (
        f"trust {folder} in Gemini CLI (/permissions, or {trusted_file}: "
        f'{{"{folder}": "TRUST_FOLDER"}}), or export GEMINI_CLI_TRUST_WORKSPACE=true before '
        "starting gemini (`gemini --skip-trust` is NOT enough: it trusts the folder only "
        "after the project's hooks were dropped), or install at user scope: "
        "bastion install gemini --user"
    )
    variable = env.get("GEMINI_CLI_TRUST_WORKSPACE")
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or variable == "false":
        return Trust(
            False,
            "GEMINI_RESTRICTED_MODE=true or GEMINI_CLI_TRUST_WORKSPACE=false in this environment: "
            f"Gemini CLI ignores {folder}/.gemini/settings.json",
            fix,
        )
    if variable == "true":
        return Trust(
            True,
            "GEMINI_CLI_TRUST_WORKSPACE=true in this environment: Gemini CLI reads "
            "the project's .gemini/settings.json (runs started without it do not)",
        )
    system = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or "/etc/gemini-cli/settings.json"
    user = os.path.join(home, ".gemini", "settings.json")
    if not _folder_trust_enabled((user, system), default=True):  # 0.61.0: `?? true`
        return Trust(True, "Gemini CLI folder trust is off: it reads the project's .gemini/settings.json")
    level = _folder_rule(folder, trusted_file)
    if level in ("TRUST_FOLDER", "TRUST_PARENT"):
        return Trust(True, f"Gemini CLI trusts {folder} ({trusted_file})")
    why = "marked DO_NOT_TRUST" if level == "DO_NOT_TRUST" else "not trusted"
    return Trust(
        False,
        f"Gemini CLI folder trust is on (its default) and {folder} is {why}: it ignores "
        f"{folder}/.gemini/settings.json, with `--skip-trust` too",
        fix,
    )


def _qwen_dir(env: Mapping[str, str]) -> str:
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.abspath(env.get("QWEN_HOME") or os.path.join(home, ".qwen"))


def qwen_trust(cwd: str, env: Mapping[str, str]) -> Trust:
    """Qwen Code 0.15.10 (read from its bundle): folder trust is *off* unless a settings file
    turns it on; when on, a folder inside any TRUST_FOLDER rule (or a TRUST_PARENT rule's
    parent) is trusted, one named exactly by DO_NOT_TRUST is not, and an undecided folder
    counts as trusted. Rules are compared as written, without resolving links."""
    folder = os.path.realpath(cwd)
    system = env.get("QWEN_CODE_SYSTEM_SETTINGS_PATH") or "/etc/qwen-code/settings.json"
    if not _folder_trust_enabled((os.path.join(_qwen_dir(env), "settings.json"), system), default=False):
        return Trust(True, "Qwen Code folder trust is off: it reads the project's .qwen/settings.json")
    trusted_file = env.get("QWEN_CODE_TRUSTED_FOLDERS_PATH") or os.path.join(
        _qwen_dir(env), "trustedFolders.json"
    )
    rules = _read_json(trusted_file)
    items = (
        [(os.path.normpath(os.path.abspath(str(k))), v) for k, v in rules.items()]
        if isinstance(rules, dict)
        else []
    )
    for rule, level in items:
        base = os.path.dirname(rule) if level == "TRUST_PARENT" else rule
        if level in ("TRUST_FOLDER", "TRUST_PARENT") and (
            folder == base or folder.startswith(base.rstrip("/") + "/")
        ):
            return Trust(True, f"Qwen Code trusts {folder} ({trusted_file})")
    if any(rule == folder and level == "DO_NOT_TRUST" for rule, level in items):
        return Trust(
            False,
            f"{trusted_file} marks {folder} DO_NOT_TRUST: Qwen Code ignores {folder}/.qwen/settings.json",
            "remove that entry or trust the folder (/permissions), or install at user scope: "
            "bastion install qwen --user",
        )
    return Trust(True, f"Qwen Code folder trust is on and {folder} is undecided, which it trusts")


def _copilot_config(env: Mapping[str, str]) -> str:
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.join(env.get("COPILOT_HOME") or os.path.join(home, ".copilot"), "config.json")


def copilot_trust(cwd: str, env: Mapping[str, str]) -> Trust:
    """Whether Copilot CLI loads ``<cwd>/.github/hooks`` (measured with the real 1.0.102: an
    untrusted folder's hooks never run, and the call runs unasked). Trusted when the folder is
    inside an entry of ``trustedFolders`` in ``$COPILOT_HOME/config.json`` (``~/.copilot``),
    or for a run started with ``COPILOT_ALLOW_ALL=true`` exactly. Copilot may also keep a
    trust it was given interactively in a store of its own that Bastion cannot read: then
    this says untrusted while Copilot runs the hook (a false alarm, never a false allow)."""
    folder = os.path.realpath(cwd)
    config = _copilot_config(env)
    fix = (
        f'add "{folder}" to "trustedFolders" in {config}, or start `copilot` in {folder} and '
        "trust the folder; for one headless run, `copilot -p … --trust-folder` or "
        "COPILOT_ALLOW_ALL=true (which also allows every tool)"
    )
    if env.get("COPILOT_ALLOW_ALL") == "true":
        return Trust(True, "COPILOT_ALLOW_ALL=true in this environment: Copilot CLI trusts the folder")
    data = _read_json(config)
    entries = data.get("trustedFolders") if isinstance(data, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, str) and os.path.isabs(entry):
            base = os.path.realpath(entry)
            if folder == base or folder.startswith(base.rstrip("/") + "/"):
                return Trust(True, f"Copilot CLI trusts {folder} ({config})")
    return Trust(
        False,
        f"Copilot CLI does not trust {folder} ({config} lists no trustedFolders entry covering it): "
        f"it skips {folder}/.github/hooks and runs every call without Bastion",
        fix,
    )


#: The check of each trust model an agent's record names.
CHECKS: Mapping[TrustModel, Callable[[str, Mapping[str, str]], Trust]] = {
    TrustModel.CODEX_PROJECTS: codex_trust,
    TrustModel.GEMINI_FOLDERS: gemini_trust,
    TrustModel.QWEN_FOLDERS: qwen_trust,
    TrustModel.COPILOT_FOLDERS: copilot_trust,
}


def project_trust(agent: str, cwd: str, env: Mapping[str, str]) -> Trust | None:
    """For a project-scope install: None when the agent has no such gate."""
    check = CHECKS.get(hooks_of(agent).trust)
    return None if check is None else check(cwd, env)
