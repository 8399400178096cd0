"""What an ``install`` call may name: a known package manager and plain package names.

The install tool hands the names to the manager as argv words, never through a shell; still,
every word must be a *name* in that manager's own syntax (with at most an exact version pin),
because a manager reads its arguments as much more than names: ``-r reqs.txt`` and
``--index-url`` change where code comes from, ``./pkg`` and ``git+https://…`` install code
nobody named, ``..`` climbs out of the workspace. Anything that is not a plain name is a
DENY with the reason, before any rule or person is consulted.

Knowledge as data: ``MANAGERS`` is the table of managers, their name syntax, the argv the
install tool runs, and the registry hosts the run may reach (nothing else).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bastion.policy.decision import Decision, Reason

#: Longest package word accepted (npm's limit is 214; the others are shorter).
MAX_NAME = 214
#: Most packages in one call: a person reads the list before saying yes.
MAX_PACKAGES = 64

_VERSION = r"[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}"


@dataclass(frozen=True, slots=True)
class Manager:
    """One package manager: ``argv`` is run with the package words appended."""

    name: str
    syntax: re.Pattern[str]  # one package word, with its optional exact pin
    example: str  # a valid word, shown in the reason
    argv: tuple[str, ...]
    hosts: tuple[str, ...]  # the registry hosts the install may reach


def _manager(name: str, word: str, example: str, argv: tuple[str, ...], hosts: tuple[str, ...]) -> Manager:
    return Manager(name, re.compile(rf"\A(?:{word})\Z"), example, argv, hosts)


_PEP508 = r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?"
_NPM_PART = r"[a-z0-9][a-z0-9._-]{0,100}"

MANAGERS: Mapping[str, Manager] = MappingProxyType(
    {
        m.name: m
        for m in (
            _manager(
                "pip",
                rf"{_PEP508}(?:\[{_PEP508}(?:,{_PEP508})*\])?(?:==[0-9][0-9A-Za-z.+_-]{{0,63}})?",
                "requests==2.32.3",
                ("pip", "install", "--no-input", "--disable-pip-version-check", "--"),
                ("pypi.org", "files.pythonhosted.org"),
            ),
            _manager(
                "npm",
                rf"(?:@{_NPM_PART}/)?{_NPM_PART}(?:@{_VERSION})?",
                "left-pad@1.3.0",
                # --ignore-scripts: a package's install scripts are code nobody reviewed.
                (
                    "npm",
                    "install",
                    "--ignore-scripts",
                    "--no-audit",
                    "--no-fund",
                    "--no-update-notifier",
                    "--",
                ),
                ("registry.npmjs.org",),
            ),
            _manager(
                "cargo",
                rf"[A-Za-z][A-Za-z0-9_-]{{0,63}}(?:@{_VERSION})?",
                "ripgrep@14.1.0",
                ("cargo", "install", "--locked"),
                ("crates.io", "index.crates.io", "static.crates.io"),
            ),
            _manager(
                "gem",
                rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,99}}(?::{_VERSION})?",
                "rake:13.2.1",
                ("gem", "install", "--no-document"),
                ("rubygems.org", "index.rubygems.org"),
            ),
            _manager(
                "apt",
                rf"[a-z0-9][a-z0-9+.-]{{1,99}}(?:={_VERSION})?",
                "jq=1.6-2.1",
                ("apt-get", "install", "-y", "--no-install-recommends"),
                ("deb.debian.org", "security.debian.org"),
            ),
        )
    }
)

#: A package file (``x-1.0-py3-none-any.whl``) spells like a name but installs unnamed code.
_FILE = re.compile(r"\.(?:whl|tar\.gz|tgz|zip|gem|crate|deb)\Z", re.IGNORECASE)
#: Never part of a name, whatever a manager's syntax lets through.
_NEVER = re.compile(rf"\.\.|{_FILE.pattern}", re.IGNORECASE)
#: Said first when a word fails, so the reason names the actual problem, not just "invalid".
_PROBLEMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\A-"), "starts with '-': a flag, not a package name"),
    (re.compile(r"://|\A(?:git\+|git@|file:|https?:|ssh:)"), "is a URL, not a package name"),
    (re.compile(r"\.\."), "contains '..'"),
    (re.compile(r"\A[~/.]|/\Z|\\"), "is a path, not a package name"),
    (_FILE, "is a package file"),
    (re.compile(r"[\s;&|<>()$`'\"\\*?!{}#^%\x00-\x1f\x7f]"), "contains a shell metacharacter or space"),
)


def _problem(word: str) -> str:
    for pattern, problem in _PROBLEMS:
        if pattern.search(word):
            return problem
    return "is not a plain package name"


def package_denials(manager: str, packages: tuple[str, ...]) -> list[Reason]:
    """DENY reasons for an install call's manager and package words (none: all valid).

    Only the table's managers exist; every word must match that manager's syntax exactly.
    Called by the engine for the ``install`` family (not for shell installs, which the shell
    classifier decides word by word)."""
    known = MANAGERS.get(manager)
    if known is None:
        names = ", ".join(MANAGERS)
        return [
            _deny("install.unknown-manager", manager, f"{manager!r} is not a known package manager ({names})")
        ]
    if len(packages) > MAX_PACKAGES:
        return [_deny("install.invalid-package", manager, f"more than {MAX_PACKAGES} packages in one call")]
    denials = []
    for word in packages:
        if len(word) <= MAX_NAME and known.syntax.match(word) and not _NEVER.search(word):
            continue
        shown = word[:80] + ("…" if len(word) > 80 else "")
        problem = "is longer than 214 characters" if len(word) > MAX_NAME else _problem(word)
        denials.append(
            _deny(
                "install.invalid-package",
                shown,
                f"{shown!r} {problem}; {manager} takes plain names with an optional exact pin, "
                f"e.g. {known.example}",
            )
        )
    return denials


def _deny(rule: str, matched: str, message: str) -> Reason:
    return Reason(Decision.DENY, rule, "built-in", matched, message)
