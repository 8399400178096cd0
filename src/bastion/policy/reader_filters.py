"""Which entries a recursive reader leaves out and which files it reads: GNU grep's
``--include``/``--exclude``/``--exclude-dir`` (the last matching rule wins), hidden entries
(rg and ag skip them unless told, or unless an ignore file's ``!name`` line whitelists one)."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from bastion.policy.treewalk import Reach

#: Ignore files whose ``!pattern`` lines make rg and ag search a hidden file anyway.
_IGNORE_FILES = frozenset({".ignore", ".rgignore", ".gitignore", ".agignore"})


@dataclass
class ReaderFilter:
    """Which entries a recursive reader leaves out and which files it reads."""

    hidden: bool
    rules: tuple[tuple[bool, str], ...] = ()  # grep --include (True) / --exclude (False), in order
    exclude_dirs: tuple[str, ...] = ()
    ignore_files: list[str] = field(default_factory=list)

    def skip(self, path: str, is_dir: bool) -> bool:
        name = path.rpartition("/")[2]  # posixpath.basename
        if is_dir and self.exclude_dirs and any(fnmatch.fnmatchcase(name, g) for g in self.exclude_dirs):
            return True
        if not self.hidden and name.startswith("."):
            if name in _IGNORE_FILES:
                self.ignore_files.append(path)
            return True
        return False

    def reads(self, path: str) -> bool:
        """GNU grep: the last matching --include/--exclude wins; with none matching, a file
        is read unless the first of them is an --include."""
        if not self.rules:
            return True  # no --include / --exclude: every file is read
        name = path.rpartition("/")[2]
        for include, glob in reversed(self.rules):
            if fnmatch.fnmatchcase(name, glob):
                return include
        return not (self.rules and self.rules[0][0])


def grep_filter(argv: tuple[str, ...]) -> tuple[tuple[tuple[bool, str], ...], tuple[str, ...]]:
    rules: list[tuple[bool, str]] = []
    dirs: list[str] = []
    for index, word in enumerate(argv[1:], start=1):
        if word == "--":
            break
        name, eq, value = word.partition("=")
        if not eq and name in ("--include", "--exclude", "--exclude-dir") and index + 1 < len(argv):
            value = argv[index + 1]
        elif not eq:
            continue
        if name == "--exclude-dir":
            dirs.append(value)
        elif name in ("--include", "--exclude"):
            rules.append((name == "--include", value))
    return tuple(rules), tuple(dirs)


def whitelists(reach: Reach, path: str) -> bool:
    """Does the ignore file at ``path`` hold a ``!name`` line (or cannot it be read)?"""
    try:
        data = reach.read(path) or b""
    except OSError:
        return True  # unreadable: it may whitelist anything
    return any(line.strip().startswith(b"!") for line in data.splitlines())
