"""A parser of git's config file syntax, and the keys that make git run a program.

Syntax (git-config(1) "CONFIGURATION FILE"): ``[section]``, ``[section "subsection"]``
(subsection case-sensitive, ``\\"`` and ``\\\\`` escaped), the deprecated
``[section.subsection]`` (lowercased); ``name = value`` or a bare ``name`` (true); names
and sections are case-insensitive; values are trimmed, ``"`` toggles quoting, ``\\n \\t \\b
\\" \\\\`` are escapes, a trailing ``\\`` continues the line, ``#`` and ``;`` start a
comment outside quotes. Anything git would reject raises ``ConfigSyntax`` (the caller fails
closed). This never runs git.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bastion.shell.programs.vcs import SAFE_PAGERS


class ConfigSyntax(ValueError):
    def __init__(self, line: int, why: str) -> None:
        super().__init__(f"line {line}: {why}")
        self.line = line


@dataclass(frozen=True, slots=True)
class Entry:
    section: str  # lowercased
    subsection: str | None  # as written (case-sensitive)
    name: str  # lowercased
    value: str | None  # None: a bare name (boolean true)
    line: int

    @property
    def key(self) -> str:
        middle = f".{self.subsection}" if self.subsection is not None else ""
        return f"{self.section}{middle}.{self.name}" if self.section else self.name


_SECTION = re.compile(r"[A-Za-z0-9.-]+")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_SPACE = frozenset(" \t\v\f\r")
_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}


def parse(text: str) -> list[Entry]:
    entries: list[Entry] = []
    lines = text.split("\n")
    section: tuple[str, str | None] | None = None
    index = 0
    while index < len(lines):
        number = index + 1
        line = lines[index].lstrip(" \t\r")
        index += 1
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        if line.startswith("["):
            section, line = _header(line, number)
            line = line.lstrip(" \t\r")
        if not line or line[0] in "#;":
            continue
        if section is None:
            section = ("", None)  # git accepts a variable before any section (key "name")
        name_match = _NAME.match(line)
        if name_match is None:
            raise ConfigSyntax(number, f"bad variable name in {line[:40]!r}")
        name = name_match.group(0).lower()
        rest = line[name_match.end() :].lstrip(" \t")
        if not rest or rest[0] in "#;\r":
            entries.append(Entry(section[0], section[1], name, None, number))
            continue
        if rest[0] != "=":
            raise ConfigSyntax(number, f"expected '=' after {name}")
        value, index = _value(rest[1:], lines, index, number)
        entries.append(Entry(section[0], section[1], name, value, number))
    return entries


def _header(line: str, number: int) -> tuple[tuple[str, str | None], str]:
    """Parse ``[section "sub"]``; return the section and the rest of the line."""
    match = _SECTION.match(line, 1)
    if match is None:
        raise ConfigSyntax(number, "bad section header")
    name = match.group(0)
    pos = match.end()
    if line[pos : pos + 1] == "]":
        if "." in name:  # [section.subsection]: deprecated, the subsection lowercased
            head, _, dotted = name.partition(".")
            return (head.lower(), dotted.lower()), line[pos + 1 :]
        return (name.lower(), None), line[pos + 1 :]
    if line[pos : pos + 2] != ' "' and not re.match(r'[ \t]+"', line[pos:]):
        raise ConfigSyntax(number, "bad section header")
    pos = line.index('"', pos) + 1
    sub: list[str] = []
    while True:
        if pos >= len(line):
            raise ConfigSyntax(number, "unterminated subsection")
        ch = line[pos]
        if ch == "\\" and pos + 1 < len(line):
            sub.append(line[pos + 1])
            pos += 2
        elif ch == '"':
            break
        else:
            sub.append(ch)
            pos += 1
    if line[pos + 1 : pos + 2] != "]":
        raise ConfigSyntax(number, "bad section header")
    return (name.lower(), "".join(sub)), line[pos + 2 :]


def _value(first: str, lines: list[str], index: int, number: int) -> tuple[str, int]:
    """git's parse_value: unquoted whitespace becomes one space per character and is kept
    only between other characters; a backslash at the end of a line continues the value."""
    out: list[str] = []
    length = 0
    space = 0
    quoted = False
    text = first
    while True:
        line = text[:-1] if text.endswith("\r") else text
        pos = 0
        continued = False
        while pos < len(line):
            ch = line[pos]
            pos += 1
            if ch in _SPACE and not quoted:
                space += 1 if length else 0
                continue
            if not quoted and ch in "#;":
                break  # a comment: the rest of the line (no continuation)
            out.append(" " * space)
            length += space
            space = 0
            if ch == "\\":
                if pos >= len(line):
                    continued = True
                    break
                escaped = _ESCAPES.get(line[pos])
                if escaped is None:
                    raise ConfigSyntax(number, f"bad escape \\{line[pos]}")
                out.append(escaped)
                pos += 1
            elif ch == '"':
                quoted = not quoted
                continue
            else:
                out.append(ch)
            length += 1
        if continued and index < len(lines):
            text = lines[index]
            index += 1
            continue
        if quoted:
            raise ConfigSyntax(number, "unterminated quote")
        return "".join(out), index


# -- keys that run programs -------------------------------------------------------------------

#: section.name (no subsection) that names a program to run.
PROGRAM_KEYS = frozenset({
    "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.hookspath",
    "core.askpass", "core.gitproxy", "core.alternaterefscommand", "core.worktree",
    "diff.external", "credential.helper", "gpg.program", "sequence.editor",
    "uploadpack.packobjectshook", "protocol.allow", "interactive.difffilter", "man.viewer",
    "web.browser",
})  # fmt: skip
#: section.*.name: any subsection.
SUB_PROGRAM_KEYS = frozenset({
    ("diff", "textconv"), ("diff", "command"), ("difftool", "cmd"), ("mergetool", "cmd"),
    ("merge", "driver"), ("credential", "helper"), ("gpg", "program"), ("remote", "uploadpack"),
    ("remote", "receivepack"), ("remote", "vcs"), ("protocol", "allow"), ("browser", "cmd"),
    ("man", "cmd"), ("trailer", "command"), ("trailer", "cmd"), ("submodule", "update"),
})  # fmt: skip
#: Every key of these sections runs programs (filter.<driver>.clean/smudge/process).
PROGRAM_SECTIONS = frozenset({"filter"})
#: Keys whose value is a program unless it is one of SAFE_PAGERS.
_PAGER_KEYS = frozenset({"core.pager", "core.editor", "sequence.editor"})
_FALSE = frozenset({"false", "no", "off", "0", ""})
#: Where git reads more configuration from: followed, not judged.
INCLUDE_NAME = "path"


def is_include(entry: Entry) -> bool:
    return entry.name == INCLUDE_NAME and (
        (entry.section == "include" and entry.subsection is None)
        or (entry.section == "includeif" and entry.subsection is not None)
    )


def runs_program(entry: Entry) -> bool:
    """Whether this setting can make a git read run a program."""
    value = entry.value.strip() if entry.value is not None else None
    plain = f"{entry.section}.{entry.name}"
    if entry.section in PROGRAM_SECTIONS:
        return True
    if entry.section == "alias":
        return value is not None and value.startswith("!")
    if entry.section == "pager":  # pager.<cmd> = true/false or a program
        return (
            value is not None
            and value.lower() not in _FALSE | {"true", "yes", "on", "1"}
            and (value not in SAFE_PAGERS)
        )
    if entry.subsection is None:
        if plain in _PAGER_KEYS:
            return value is None or value not in SAFE_PAGERS
        if plain == "core.fsmonitor":
            return value is not None and value.lower() not in _FALSE
        if plain == "protocol.allow":
            return value is not None and value.lower() != "never"
        return plain in PROGRAM_KEYS
    if (entry.section, entry.name) == ("protocol", "allow"):
        return value is not None and value.lower() != "never"
    if (entry.section, entry.name) == ("submodule", "update"):
        return value is not None and value.startswith("!")
    return (entry.section, entry.name) in SUB_PROGRAM_KEYS


#: Of those, the settings that never run during a read-only git command: an editor, hooks, a
#: merge driver or tool, an alias (git ignores one named like a built-in command, and an
#: alias is no reader), a submodule update command.
_NEVER_ON_READ = frozenset({"core.editor", "sequence.editor", "core.hookspath"})
_NEVER_ON_READ_SECTIONS = frozenset({"alias", "merge", "mergetool", "difftool", "trailer", "submodule"})
#: Settings that run only when git reaches a remote (``git remote show origin`` does).
_NETWORK = frozenset({"core.sshcommand", "core.askpass", "core.gitproxy", "credential.helper",
                      "uploadpack.packobjectshook", "protocol.allow"})  # fmt: skip
_NETWORK_SECTIONS = frozenset({"credential", "remote", "protocol"})
#: Settings that run only for ``git help`` (a man page viewer or a browser).
_HELP_SECTIONS = frozenset({"man", "browser", "web", "help"})
_NETWORK_SUBCOMMANDS = frozenset({"remote", "ls-remote", "submodule"})


def runs_for(entry: Entry, subcommand: str | None) -> bool:
    """Whether this setting can run a program while the read-only git ``subcommand`` runs."""
    if not runs_program(entry):
        return False
    plain = f"{entry.section}.{entry.name}"
    if plain in _NEVER_ON_READ or entry.section in _NEVER_ON_READ_SECTIONS:
        return False
    if plain in _NETWORK or entry.section in _NETWORK_SECTIONS:
        return subcommand in _NETWORK_SUBCOMMANDS
    if entry.section in _HELP_SECTIONS:
        return subcommand in ("help", "--help")
    return True
