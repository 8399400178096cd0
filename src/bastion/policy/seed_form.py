"""The flat ``permissions.toml`` of the 000 seed, read with that document's meaning.

That document's file::

    mode = "workspace"
    workspace_dirs = ["/home/me/project"]
    allowed_commands = ["rg", "git status", "git diff", "cargo check", "cargo test"]
    denied_commands = ["rm -rf /", "mkfs", "shutdown", "reboot"]
    allowed_read_paths = ["/home/me/project"]
    denied_read_paths = [".ssh", "*.pem", "*.key", "id_ed25519"]
    allowed_write_paths = ["/home/me/project", "/tmp"]
    denied_write_paths = ["/etc", "/boot", "/sys", "/proc", "/dev"]
    allowed_hosts = ["api.deepseek.com", "github.com", "crates.io"]
    denied_hosts = []
    confirm_destructive = true

is translated, before validation, into Bastion's own keys (:func:`translate`); the same
translation is what ``bastion policy import`` writes out (bastion.evidence.imports.seed000),
so a file loaded as written and its import decide alike. What each key means there, and here:

* ``mode``: the same three words. Its ``read-only`` means *no shell access*, so the file also
  gets ``shell_in_read_only = false``.
* command lists hold *prefixes* ("allow a listed prefix"): ``cargo check`` covers
  ``cargo check --all``, ``shutdown`` covers ``shutdown -h now``. Each entry becomes Bastion's
  explicit prefix form, the entry with a final ``*`` (zero or more further words). An allow
  entry still grants only its program's base effect, per simple command: ``cargo test``
  allowed does not allow ``cargo test; curl … | sh``.
* an unlisted command is *confirmed* in ``workspace`` mode (Bastion's own workspace mode
  would allow a pure reader): a catch-all ``ask`` rule for ``shell`` comes first, then one
  ``allow`` rule per ``allowed_commands`` entry (the last matching rule wins).
* path lists are gitignore-style globs already (a name without a slash matches at any
  depth, a folder covers what is under it); host lists are host names.
* ``confirm_destructive = true`` is what Bastion always does (destructive, system,
  infrastructure and credential commands ask, never a standing grant, and deletes ask in
  full-access); ``false`` cannot be honoured and is a load error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bastion.errors import PolicyError

#: The seed's keys that Bastion's own form does not have (``mode`` is shared).
SEED_KEYS = (
    "workspace_dirs",
    "allowed_commands",
    "denied_commands",
    "allowed_read_paths",
    "denied_read_paths",
    "allowed_write_paths",
    "denied_write_paths",
    "allowed_hosts",
    "denied_hosts",
    "confirm_destructive",
)

#: Seed key → (Bastion section, Bastion key), for the keys that are plain lists.
_LISTS: dict[str, tuple[str, str]] = {
    "workspace_dirs": ("", "workspace"),
    "allowed_read_paths": ("paths", "allow_read"),
    "denied_read_paths": ("paths", "deny_read"),
    "allowed_write_paths": ("paths", "allow_write"),
    "denied_write_paths": ("paths", "deny_write"),
    "allowed_hosts": ("network", "allow_hosts"),
    "denied_hosts": ("network", "deny_hosts"),
    "denied_commands": ("commands", "deny"),
}

#: What each key became, for ``bastion policy import``'s notes.
NOTES: dict[str, str] = {
    "mode": "mode: the same word; read-only there means no shell at all (shell_in_read_only = false)",
    "workspace_dirs": "workspace_dirs -> workspace (read-write roots)",
    "allowed_commands": (
        "allowed_commands -> one shell allow rule per prefix ('X *'), after a catch-all ask: "
        "an unlisted command is confirmed, as there"
    ),
    "denied_commands": "denied_commands -> [commands] deny, each a prefix ('X *'); flags in any order",
    "allowed_read_paths": "allowed_read_paths -> [paths] allow_read (globs; a folder covers its contents)",
    "denied_read_paths": "denied_read_paths -> [paths] deny_read (a name without '/' matches at any depth)",
    "allowed_write_paths": "allowed_write_paths -> [paths] allow_write",
    "denied_write_paths": "denied_write_paths -> [paths] deny_write",
    "allowed_hosts": "allowed_hosts -> [network] allow_hosts",
    "denied_hosts": "denied_hosts -> [network] deny_hosts",
    "confirm_destructive": (
        "confirm_destructive = true: nothing to write, Bastion always confirms destructive "
        "operations (never a standing grant)"
    ),
}

CATCH_ALL_REASON = "permissions.toml: a command not in allowed_commands is confirmed"


@dataclass(frozen=True, slots=True)
class SeedForm:
    """A seed file in Bastion's form: ``data`` to validate, the seed keys it used (in file
    order), and where each Bastion key was written (for errors naming the line)."""

    data: dict[str, Any]
    keys: tuple[str, ...]
    aliases: tuple[tuple[tuple[str | int, ...], tuple[str | int, ...]], ...]


def is_seed_form(data: Mapping[str, Any]) -> bool:
    return any(key in data for key in SEED_KEYS)


def prefix(entry: str) -> str:
    """A seed command entry as Bastion's explicit prefix form: the words, then ``*``."""
    words = entry.split()
    return " ".join(words) if words[-1:] == ["*"] else " ".join([*words, "*"])


def translate(data: Mapping[str, Any], *, file: str) -> SeedForm:
    """``data`` (a parsed seed file) in Bastion's own keys; PolicyError for what cannot be."""
    out: dict[str, Any] = {k: v for k, v in data.items() if k not in SEED_KEYS}
    aliases: list[tuple[tuple[str | int, ...], tuple[str | int, ...]]] = []
    used = tuple(k for k in data if k in SEED_KEYS or k == "mode")
    for key, (section, name) in _LISTS.items():
        if key not in data:
            continue
        entries = _strings(data[key], key, file)
        if key == "denied_commands":
            entries = [prefix(e) for e in entries]
        table = out if not section else out.setdefault(section, {})
        if not isinstance(table, dict) or name in table:
            where = f"{section}.{name}" if section else name
            raise PolicyError(f"{key} and {where} both set: write one of the two forms", file=file, key=key)
        table[name] = entries
        aliases.append(((section, name) if section else (name,), (key,)))
    if data.get("confirm_destructive", True) is not True:
        raise PolicyError(
            "confirm_destructive must be true: Bastion always confirms destructive operations "
            "(remove the key, or set it to true)",
            file=file,
            key="confirm_destructive",
        )
    if data.get("mode") == "read-only":
        out.setdefault("shell_in_read_only", False)
    rules = _command_rules(data, file)
    if rules:
        if "rule" in out:
            raise PolicyError("allowed_commands and [[rule]] both set: write one of the two forms", file=file)
        out["rule"] = rules
        aliases += [(("rule", i), ("allowed_commands",)) for i in range(len(rules))]
    return SeedForm(out, used, tuple(aliases))


def _command_rules(data: Mapping[str, Any], file: str) -> list[dict[str, Any]]:
    allowed = _strings(data.get("allowed_commands", []), "allowed_commands", file)
    rules: list[dict[str, Any]] = []
    if data.get("mode", "workspace") in ("workspace", "ask-before-edit"):
        rules.append({"tool": "shell", "action": "ask", "reason": CATCH_ALL_REASON})
    for entry in allowed:
        rules.append(
            {
                "tool": "shell",
                "pattern": prefix(entry),
                "action": "allow",
                "reason": f"allowed_commands: {entry!r} (a listed prefix)",
                "match": [" ".join(entry.split())],
            }
        )
    return rules


def _strings(value: Any, key: str, file: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise PolicyError("expected a list of non-empty strings", file=file, key=key)
    return [str(v) for v in value]
