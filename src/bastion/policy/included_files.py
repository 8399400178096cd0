"""What a text processor pulls into its output from the files it is given (#31, suites A and D:
file indirection). ``cpp -P main.c`` prints every file ``main.c`` includes, and what those
include; ``m4 defs.m4`` prints what ``include(`…')`` names; ``xmllint --noent feed.xml``
prints the file an external entity names. A workspace file that includes ``~/.netrc`` makes
the processor print it.

The gate reads each file the command names (small files, through the call's ``Reach``), finds
its include directives, and judges each file they name as a read (C includes in quotes are
followed a few levels, relative to the including file; ``<…>`` names the system's headers).
A credential among them is denied; a file outside the readable roots asks. Only ever stricter:
what the directives name is all the processor prints beyond its operands.
"""

from __future__ import annotations

import posixpath
import re

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, PathError, check_path
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import SimpleCommand

_C_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*(?:include|include_next|import)[ \t]*"([^"\n]+)"', re.M)
_M4_INCLUDE = re.compile(rb"\b(?:s?include|undivert)\(\s*`?([^'`)\n]+)'?\s*\)")
_XML_ENTITY = re.compile(
    rb"""<!ENTITY\s+(?:%\s*)?[\w.:-]+\s+(?:SYSTEM|PUBLIC\s+["'][^"']*["'])\s+["']([^"']+)["']"""
)
_XINCLUDE = re.compile(rb"""<(?:\w+:)?include\b[^>]*\bhref\s*=\s*["']([^"']+)["']""")

#: Directives per processor, and how deep included files are followed.
_C = (_C_INCLUDE,)
_XML = (_XML_ENTITY, _XINCLUDE)
#: C compilers print what they include when they preprocess alone (``-E``), and a line of it
#: in each diagnostic when they compile (``gcc -fsyntax-only x.c`` shows the credential's
#: lines its syntax errors are on): their includes are read either way.
_COMPILERS = frozenset({"gcc", "cc", "clang", "g++", "c++", "clang++", "tcc"})
_DEPTH = 4
_FILES = 64


def _directives(cmd: SimpleCommand) -> tuple[re.Pattern[bytes], ...]:
    program = cmd.program or ""
    if program in ("cpp", "mcpp") or program in _COMPILERS:
        return _C
    if program in ("m4", "gm4"):
        return (_M4_INCLUDE,)
    if program in ("xmllint", "xsltproc", "xmlstarlet"):
        return _XML
    return ()


def check_includes(
    policy: Policy, fs: FileSystem, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """DENY / ASK reasons for the files ``cmd``'s operands include."""
    patterns = _directives(cmd)
    if not patterns or cwds is None:
        return []
    cwd = cwds[-1]
    # Its operands: the words that are no options (an option's value read as one costs a
    # look at a file that is not included; a word only known at run time is not looked at).
    dynamic = set(cmd.dynamic_words)
    operands = [w for i, w in enumerate(cmd.argv) if i and i not in dynamic and not w.startswith("-")]
    queue = [(posixpath.normpath(posixpath.join(cwd, _home(w, policy.home))), 0) for w in operands]
    seen: set[str] = set()
    reasons: list[Reason] = []
    while queue and len(seen) < _FILES:
        path, depth = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        if path.startswith(("/dev/", "/proc/", "/sys/")) or fs.identity(path) is None:
            continue  # a regular file only: a device or a pipe may block or never end
        try:
            data = reach.read(path) or b""
        except (OSError, OverBudget):
            continue
        for name in _named(data, patterns):
            target = _target(name, path, cwd, policy.home)
            if target is None:
                continue
            reason = _judge(policy, fs, cmd.program or "it", path, target)
            if reason is not None:
                reasons.append(reason)
            elif patterns is _C and depth + 1 < _DEPTH:
                queue.append((target, depth + 1))
    return reasons


def _home(word: str, home: str) -> str:
    return home + word[1:] if word == "~" or word.startswith("~/") else word


def _named(data: bytes, patterns: tuple[re.Pattern[bytes], ...]) -> list[str]:
    return [m.group(1).decode("utf-8", "replace").strip() for p in patterns for m in p.finditer(data)]


def _target(name: str, including: str, cwd: str, home: str) -> str | None:
    """The file a directive names: a file URL's path, or a path relative to the including
    file's folder (m4: the working directory); None for a remote URL."""
    if name.startswith("file://"):
        name = name[len("file://") :].removeprefix("localhost")
    elif "://" in name:
        return None
    if name == "~" or name.startswith("~/"):
        name = home + name[1:]
    base = posixpath.dirname(including) if not name.startswith("/") else "/"
    return posixpath.normpath(posixpath.join(base or cwd, name))


def _judge(policy: Policy, fs: FileSystem, program: str, including: str, target: str) -> Reason | None:
    try:
        verdict = check_path(policy, target, write=False, cwd="/", fs=fs)
    except PathError:
        return None
    denied = [r for r in verdict.reasons if r.decision is Decision.DENY]
    why = f"{program} prints what {including} includes: {target}"
    if verdict.decision is Decision.DENY and denied:
        return Reason(
            Decision.DENY, denied[0].rule, "built-in", target[:200], f"{why}; {denied[0].message}"[:400]
        )
    if not verdict.inside_roots:
        return Reason(
            Decision.ASK,
            "paths.outside-roots",
            "built-in",
            target[:200],
            f"{why}, outside the readable roots",
        )
    return None
