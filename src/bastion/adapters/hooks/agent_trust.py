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

**Gemini CLI** documents folder trust: with ``security.folderTrust.enabled`` in the user's
``~/.gemini/settings.json``, a project's ``.gemini/settings.json`` is ignored unless
``~/.gemini/trustedFolders.json`` maps the folder (or, with ``TRUST_PARENT``, its parent) to
trust. Gemini CLI is not installed here, so this follows its documentation, not a run.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass


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


def gemini_trust(cwd: str, env: Mapping[str, str]) -> Trust:
    home = env.get("HOME") or os.path.expanduser("~")
    folder = os.path.realpath(cwd)
    settings = _read_json(os.path.join(home, ".gemini", "settings.json"))
    security = settings.get("security") if isinstance(settings, dict) else None
    folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
    if not (isinstance(folder_trust, dict) and folder_trust.get("enabled") is True):
        return Trust(True, "Gemini CLI folder trust is off: it reads the project's .gemini/settings.json")
    trusted_file = os.path.join(home, ".gemini", "trustedFolders.json")
    rules = _read_json(trusted_file)
    rules = rules if isinstance(rules, dict) else {}
    fix = (
        f"trust {folder} in Gemini CLI (/permissions, or {trusted_file}: "
        f'{{"{folder}": "TRUST_FOLDER"}}), or install at user scope: bastion install gemini --user'
    )
    verdict = None
    for path, level in rules.items():  # the longest matching rule decides
        path = os.path.realpath(str(path))
        covers = (
            folder == path
            or (level == "TRUST_PARENT" and os.path.dirname(folder) == path)
            or folder.startswith(path.rstrip("/") + "/")
        )
        if covers and (verdict is None or len(path) > len(verdict[0])):
            verdict = (path, level)
    if verdict is not None and verdict[1] in ("TRUST_FOLDER", "TRUST_PARENT"):
        return Trust(True, f"Gemini CLI trusts {folder} ({trusted_file})")
    return Trust(
        False,
        f"Gemini CLI folder trust is on and {folder} is not trusted: it ignores "
        f"{folder}/.gemini/settings.json",
        fix,
    )


def project_trust(agent: str, cwd: str, env: Mapping[str, str]) -> Trust | None:
    """For a project-scope install: None when the agent has no such gate."""
    if agent == "codex":
        return codex_trust(cwd, env)
    if agent == "gemini":
        return gemini_trust(cwd, env)
    return None
