"""Mercurial runs what its configuration says on any command, reads included: ``[hooks]``
(``pre-status = …`` runs on ``hg status``), ``[extensions]`` (Python loaded by path or by
name), ``[alias]`` (one may shadow ``status`` with ``!sh …``), ``[pager]``, merge and diff
tools… So a repository's ``.hg/hgrc`` (and ``hgrc-not-shared``, and the shared source's
``hgrc``) is judged by what is known to be harmless: ``[paths]``, a few ``[ui]`` keys, and
sections of plain options; any other setting makes the command code. The person's own
``~/.hgrc``, ``~/.config/hg/hgrc`` and ``/etc/mercurial/hgrc`` (and what they include) are
their choice while the agent could not have written them (``agent_cannot_write``); otherwise they
are judged the same way. ``--config`` on the command line is code; ``-R``/``--repository``
and ``--cwd`` say which repository is read. This never runs hg.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem
from bastion.policy.repositories import agent_cannot_write
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import SimpleCommand

#: Sections that never name a program.
HARMLESS_SECTIONS = frozenset({"paths", "phases", "format", "diff", "color", "templatealias", "revsetalias"})
#: Keys of ``[ui]`` that never name a program (``ui.editor``, ``ui.merge``, ``ui.ssh`` do).
HARMLESS_UI = frozenset({"username", "verbose", "quiet", "debug", "color", "paginate", "traceback",
                         "tweakdefaults", "interactive", "relative-paths", "report_untrusted"})  # fmt: skip
USER_FILES = (".hgrc", ".config/hg/hgrc")
SYSTEM_FILES = ("/etc/mercurial/hgrc",)
_VALUED = frozenset({"-R", "--repository", "--cwd", "--config", "--encoding", "--color", "--pager"})
_SECTION = re.compile(r"^\[([^\]]+)\]")
_KEY = re.compile(r"^([^=\s][^=]*?)\s*[=:]")
_MAX_DEPTH = 10


class HgrcUnknown(ValueError):
    """An include loop too deep, or an include only known at run time."""


@dataclass(frozen=True, slots=True)
class Setting:
    file: str
    line: int
    key: str  # section.name
    value: str = ""


def _harmless(section: str, name: str) -> bool:
    return section in HARMLESS_SECTIONS or (section == "ui" and name in HARMLESS_UI)


def settings(reach: Reach, path: str, depth: int = 0) -> list[tuple[Setting, str]]:
    """Every setting of ``path`` and what it includes, each with the file it came from.
    Raises OSError, OverBudget, HgrcUnknown."""
    if depth > _MAX_DEPTH:
        raise HgrcUnknown(f"%include nested deeper than {_MAX_DEPTH} at {path}")
    data = reach.read(path)
    if data is None:
        return []
    out: list[tuple[Setting, str]] = []
    section = ""
    for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), start=1):
        if line.startswith("%include"):
            target = line[len("%include") :].strip()
            if "$" in target:
                raise HgrcUnknown(f"{path}:{number} includes {target}, only known at run time")
            out.extend(settings(reach, posixpath.join(posixpath.dirname(path), target), depth + 1))
            continue
        header = _SECTION.match(line)
        if header is not None:
            section = header.group(1).strip().lower()
            continue
        if not line.strip() or line[0] in "#; \t" or line.startswith("%unset"):
            continue  # a comment, a continuation of the value above, or an unset
        key = _KEY.match(line)
        name = key.group(1).strip().lower() if key is not None else line.strip().lower()
        value = line[key.end() :].strip() if key is not None else ""
        out.append((Setting(path, number, f"{section}.{name}", value), path))
    return out


def discover(reach: Reach, start: str) -> str | None:
    """The ``.hg`` folder hg finds from ``start`` (resolved, walking up)."""
    current = reach.resolve(start)
    while True:
        dothg = posixpath.join(current, ".hg")
        if reach.kind(dothg, follow=True) is Kind.DIR:
            return dothg
        parent = posixpath.dirname(current)
        if parent == current:
            return None
        current = parent


def repository_files(reach: Reach, dothg: str) -> list[str]:
    files = [posixpath.join(dothg, "hgrc"), posixpath.join(dothg, "hgrc-not-shared")]
    shared = reach.read(posixpath.join(dothg, "sharedpath"))
    if shared is not None:
        source = posixpath.join(dothg, shared.decode("utf-8", "replace").strip())
        files.append(posixpath.join(source, "hgrc"))
    return files


def _where(cmd: SimpleCommand, cwds: tuple[str, ...]) -> tuple[list[str], list[Reason]]:
    """Where hg starts, and the reasons ``--config`` words make it code."""
    dirs = list(cwds)
    reasons = []
    argv = cmd.argv
    for i, word in enumerate(argv[1:], start=1):
        flag, eq, value = word.partition("=")
        if flag not in _VALUED:
            continue
        value = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
        if flag == "--config":
            reasons.append(_reason(word, f"hg --config {value} sets configuration that can run a program"))
        elif flag in ("-R", "--repository", "--cwd"):
            dirs = [posixpath.join(d, value) for d in dirs]
    return dirs, reasons


def program_path(value: str, home: str, base: str) -> str | None:
    """The file a setting's program names when it names one by path (``python:x.py:f``,
    ``~/ext.py``, ``./hook.sh arg``); None for a bare name or a bundled extension."""
    words = value.split(None, 1)
    word = words[0] if words else ""
    if word.startswith("python:"):
        word = word[len("python:") :].rsplit(":", 1)[0]
    word = word.removeprefix("!")
    if word == "~" or word.startswith("~/"):
        word = home + word[1:]
    return posixpath.normpath(posixpath.join(base, word)) if "/" in word else None


def _reason(where: str, message: str) -> Reason:
    return Reason(Decision.ASK, "shell.hg-config", "built-in", where[:200], message)


def check_hg(
    policy: Policy, fs: FileSystem, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """Reasons an hg command runs configured code ([] when its configuration names none)."""
    if cmd.program not in ("hg", "chg") or cmd.dynamic:
        return []
    if cwds is None or cmd.dynamic_words:
        return [
            _reason("hg", "hg runs where, or with what, is only known at run time: its config is unknown")
        ]
    dirs, reasons = _where(cmd, cwds)
    home = policy.home
    try:
        files = [(p, False) for d in dirs if (hg := discover(reach, d)) for p in repository_files(reach, hg)]
        files += [(posixpath.join(home, p), True) for p in USER_FILES]
        files += [(p, True) for p in SYSTEM_FILES]
        for path, level in dict.fromkeys(files):
            for setting, source in settings(reach, path):
                program = program_path(setting.value, home, dirs[0])
                trusted = (
                    level
                    and agent_cannot_write(policy, fs, path)
                    and agent_cannot_write(policy, fs, source)
                    and (program is None or agent_cannot_write(policy, fs, program))
                )
                section, _, name = setting.key.partition(".")
                if not trusted and not _harmless(section, name):
                    reasons.append(
                        _reason(
                            f"{setting.file}:{setting.line} {setting.key}",
                            f"hg reads {setting.file}, which sets {setting.key} (line {setting.line}): "
                            "Mercurial can run a program for it, so this hg command runs repository code",
                        )
                    )
    except OverBudget as exc:
        return [_reason(exc.where, f"hg's repository and configuration below {exc.where} exceed the budget")]
    except (OSError, HgrcUnknown) as exc:
        return [_reason("hg", f"hg's repository or configuration cannot be read: {exc}")]
    return list(dict.fromkeys(reasons))
