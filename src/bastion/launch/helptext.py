"""Read the words of an agent CLI's ``--help``: its options, their choices, its commands.

Understands the layouts the known CLIs print (commander, clap short and long help, yargs and
hand-written lists) without knowing which program printed them: an option line is an
indented line starting with ``-``; the lines indented under it are its description.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

_OPTION_LINE = re.compile(r"^(?P<indent>[ \t]{1,8})(?=-{1,2}[A-Za-z0-9])")
_NAME = re.compile(r"-{1,2}[A-Za-z0-9][\w.-]*")
_VALUE = re.compile(r"(?:=| )(?:\[<[^>]+>(?:\.\.\.)?\]|<[^>]+>(?:\.\.\.)?|\[[\w.-]+\])")
_SEPARATOR = re.compile(r",\s*(?=-)")
_QUOTED = re.compile(r'"([^"]*)"')
_CHOICES = re.compile(r"[(\[]choices: ([^)\]]*)[)\]]")
_POSSIBLE = re.compile(r"\[possible values: ([^\]]*)\]")
_LONG_CHOICE = re.compile(r"^\s*- ([\w.-]+)(?::\s*(.*))?$")
_TYPED_VALUE = re.compile(r"\[(?:string|array|number)\]")
_SECTION = re.compile(r"^(?P<title>[A-Z][\w ]*):\s*$")
_INTERACTIVE = re.compile(r"\b(non-?)?interactive(ly)?\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class HelpOption:
    """One option as the help lists it."""

    names: tuple[str, ...]
    takes_value: bool
    description: str
    choices: tuple[str, ...] = ()
    choice_help: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """The name Bastion passes: the first long name, else the first name."""
        return next((n for n in self.names if n.startswith("--")), self.names[0])

    def help_for(self, choice: str) -> str:
        return dict(self.choice_help).get(choice, "")


@dataclass(frozen=True, slots=True)
class HelpExample:
    """A commented example command from an ``Examples:`` section."""

    comment: str
    argv: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HelpText:
    summary: str
    options: tuple[HelpOption, ...]
    commands: tuple[str, ...]
    examples: tuple[HelpExample, ...]

    def option(self, name: str) -> HelpOption | None:
        """The option listed under ``name`` (``--x=v`` and ``--x`` both find ``--x``)."""
        key = name.split("=", 1)[0]
        return next((o for o in self.options if key in o.names), None)

    @property
    def non_interactive(self) -> bool:
        """True when the summary's first word on interactivity says non-interactive."""
        found = _INTERACTIVE.search(self.summary)
        return bool(found and found.group(1))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _parse_head(text: str) -> tuple[tuple[str, ...], bool, str]:
    """``-s, --sandbox <MODE>  desc`` → names, takes a value, rest of the line."""
    names: list[str] = []
    takes_value = False
    pos = 0
    while True:
        found = _NAME.match(text, pos)
        if not found:
            break
        names.append(found.group(0))
        pos = found.end()
        value = _VALUE.match(text, pos)
        if value:
            takes_value = True
            pos = value.end()
        sep = _SEPARATOR.match(text, pos)
        if not sep:
            break
        pos = sep.end()
    return tuple(names), takes_value, text[pos:].strip()


def _choices(description: str, lines: list[str]) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    found = _CHOICES.search(description)
    if found:
        choices = tuple(_QUOTED.findall(found.group(1)))
    else:
        found = _POSSIBLE.search(description)
        choices = tuple(c.strip() for c in found.group(1).split(",")) if found else ()
    helps: list[tuple[str, str]] = []
    if "Possible values:" in description:  # clap long help: "- name: what it does"
        after = False
        for line in lines:
            after = after or "Possible values:" in line
            item = _LONG_CHOICE.match(line) if after else None
            if item:
                helps.append((item.group(1), (item.group(2) or "").strip()))
        choices = choices or tuple(name for name, _ in helps)
    for choice in choices:  # "default (prompt for approval), plan (read-only mode)"
        inline = re.search(rf"(?<![\w-]){re.escape(choice)} \(([^)]*)\)", description)
        if inline and choice not in dict(helps):
            helps.append((choice, inline.group(1)))
    return choices, tuple(helps)


def _option(head: str, body: list[str]) -> HelpOption | None:
    names, takes_value, rest = _parse_head(head)
    if not names:
        return None
    lines = [rest, *body]
    description = " ".join(" ".join(line.split()) for line in lines if line.strip())
    choices, helps = _choices(description, lines)
    takes_value = takes_value or bool(choices) or bool(_TYPED_VALUE.search(description))
    return HelpOption(names, takes_value, description, choices, helps)


def _commands(lines: list[str]) -> list[str]:
    rows = [line.split() for line in lines if line.strip()]
    if not rows:
        return []
    firsts = {row[0] for row in rows}
    shared_prefix = len(firsts) == 1 and len(rows) > 1  # yargs: "gemini mcp  Manage …"
    out: list[str] = []
    for row in rows:
        token = row[1] if shared_prefix and len(row) > 1 else row[0]
        if token[:1] in "[<-":
            continue
        out.extend(token.split("|"))
        alias = re.search(r"\[aliases?: ([^\]]*)\]", " ".join(row))
        if alias:
            out.extend(a.strip() for a in alias.group(1).split(","))
    return out


def parse_help(text: str) -> HelpText:
    """Parse one help text; never fails (an unreadable help gives no options)."""
    lines = text.replace("\r\n", "\n").expandtabs(8).split("\n")
    options: list[HelpOption] = []
    command_lines: list[str] = []
    examples: list[HelpExample] = []
    summary: list[str] = []
    section = ""
    in_usage = False
    i = 0
    while i < len(lines):
        line = lines[i]
        in_usage = (in_usage and bool(line.strip())) or line.lstrip().startswith("Usage:")
        header = _SECTION.match(line)
        if header:
            section = header.group("title").lower()
            i += 1
            continue
        opening = _OPTION_LINE.match(line)
        if opening:
            indent = len(opening.group("indent"))
            body: list[str] = []
            j = i + 1
            while j < len(lines):
                nxt = lines[j]
                if nxt.strip() and (_indent(nxt) <= indent or _OPTION_LINE.match(nxt)):
                    break
                body.append(nxt)
                j += 1
            option = _option(line.strip(), body)
            if option is not None:
                options.append(option)
            i = j
            continue
        if section.startswith("command") and line.strip() and _indent(line) <= 8:
            command_lines.append(line)
        elif section.startswith("example") and line.strip().startswith("#"):
            command = next((n for n in lines[i + 1 :] if n.strip()), "")
            try:
                argv = tuple(shlex.split(command.strip().removeprefix("$ ")))
            except ValueError:
                argv = ()
            examples.append(HelpExample(line.strip().lstrip("# ").strip(), argv))
        elif not section and not in_usage and line.strip():
            summary.append(line.strip())
        i += 1
    commands = _commands(command_lines)
    return HelpText(" ".join(summary), tuple(options), tuple(dict.fromkeys(commands)), tuple(examples))
