"""What a jq program's module system reads, judged as the reads they are.

``jq -n 'import "config" as $c {search: "~/.docker"}; $c'`` prints ``~/.docker/config.json``;
so does ``jq -n -f scripts/x.jq`` when the file holds that directive, and ``-L ~/.docker``
with a bare ``import``. The program (the filter argument, or the ``-f`` file read through the
call's ``Reach``) is read by ``bastion.shell.jqscript``; each file a directive may load is
judged as a read by the path policy: a credential location is denied, a place outside the
readable roots asks. A program, file or search path only known at run time asks, and so
does a module (``.jq``) import: the module's own directives are not followed.

Search order (jq manual, "Modules"): the directive's ``search`` metadata, then ``-L`` paths
(by default ``~/.jq``, ``$ORIGIN/../lib/jq``, ``$ORIGIN/../lib``); a relative search path
is taken from the including file's folder (the working directory for a filter given on the
command line), which jq also searches itself. ``$ORIGIN`` is jq's own installation, and
``~/.jq`` the person's own library, out of an agent's reach: neither is judged, unless the
module path climbs out of it (``..``) or is absolute.
"""

from __future__ import annotations

import posixpath

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, PathError, check_path
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.disclosure import JQ_TOKEN
from bastion.shell.jqscript import Directive, modules
from bastion.shell.model import SimpleCommand
from bastion.shell.programs.printers import ENV_IDENTIFIERS

#: jq, and the programs that take a jq program and may hand it to jq's module system:
#: gojq and jaq (their own), yq (the Python yq runs jq itself; a program another yq cannot
#: parse is refused by it, so judging its directives costs nothing).
JQ_PROGRAMS = frozenset({"jq", "gojq", "jaq", "yq"})
#: Options that take a value (one, or two for --arg NAME VALUE and its kin).
_ONE = frozenset({"--indent", "-L", "--library-path", "-f", "--from-file"})
_TWO = frozenset({"--arg", "--argjson", "--slurpfile", "--rawfile"})
_REST = frozenset({"--args", "--jsonargs"})  # later positionals are arguments, not files


def check_jq(
    policy: Policy, fs: FileSystem, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """DENY/ASK reasons for what ``cmd``'s jq program loads through its module system."""
    if cmd.program not in JQ_PROGRAMS:
        return []
    argv, dynamic = cmd.argv, set(cmd.dynamic_words)
    library: list[str] = []
    program_file: str | None = None
    filter_at: int | None = None
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            if filter_at is None and program_file is None and i + 1 < len(argv):
                filter_at = i + 1
            break
        name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if word.startswith("-L") and len(word) > 2:
            name, value, eq = "-L", word[2:].removeprefix("="), "="
        if name in _ONE or name in _TWO:
            at = i if eq else i + 1
            value = value if eq else (argv[at] if at < len(argv) else "")
            if at in dynamic and name in ("-L", "--library-path", "-f", "--from-file"):
                return [_ask(cmd, "?", f"{name} only known at run time")]
            if name in ("-L", "--library-path"):
                library.append(value)
            elif name in ("-f", "--from-file"):
                program_file = value
            i = at + 1 + (1 if name in _TWO else 0)
            continue
        if name in _REST:
            break
        if not word.startswith("-") or word == "-":
            if filter_at is None and program_file is None:
                filter_at = i
            i += 1
            continue
        i += 1
    if cwds is None:
        return [_ask(cmd, "?", "runs in a folder only known at run time")]
    reasons: list[Reason] = []
    for cwd in dict.fromkeys(cwds):
        source, origin = _program(reach, cmd, filter_at, program_file, cwd)
        if isinstance(source, Reason):
            return [source]
        if source is None:
            continue  # no program: jq prints its usage
        found = modules(source)
        if found is None:
            return [_ask(cmd, origin, "a program jq's lexer cannot follow")]
        if found.unknown is not None:
            reasons.append(_ask(cmd, origin, found.unknown))
        for directive in found.directives:
            reasons += _judge(policy, fs, cmd, directive, origin, library, cwd)
            reasons += _module_env(reach, cmd, directive, origin, library, cwd)
    return list(dict.fromkeys(reasons))


def _program(
    reach: Reach, cmd: SimpleCommand, filter_at: int | None, program_file: str | None, cwd: str
) -> tuple[str | Reason | None, str]:
    """The program text and the folder its relative search paths start from."""
    if program_file is None:
        if filter_at is None or filter_at >= len(cmd.argv):
            return None, cwd
        if filter_at in cmd.dynamic_words:
            return _ask(cmd, "?", "a program only known at run time"), cwd
        return cmd.argv[filter_at], cwd
    path = posixpath.normpath(posixpath.join(cwd, program_file))
    try:
        data = reach.read(path)
    except (OSError, OverBudget):
        data = None
    if data is None:
        return _ask(cmd, path, f"a program file that cannot be read ({program_file})"), cwd
    return data.decode("utf-8", "replace"), posixpath.dirname(path)


def _judge(
    policy: Policy,
    fs: FileSystem,
    cmd: SimpleCommand,
    directive: Directive,
    origin: str,
    library: list[str],
    cwd: str,
) -> list[Reason]:
    """Each file the directive may load, judged as a read; a module import asks too."""
    escapes = directive.path.startswith("/") or ".." in directive.path.split("/")
    # (folder, what a relative one is taken from): -L paths from the working directory.
    folders = [*((f, origin) for f in directive.search), *((f, cwd) for f in library), (".", origin)]
    if not library and escapes:
        folders.append(("~/.jq", cwd))
    suffixes = (".json",) if directive.data else (".jq", f"/{posixpath.basename(directive.path)}.jq")
    reasons: list[Reason] = []
    if not directive.data:
        why = f"imports the jq module {directive.path!r}, whose own imports are not read"
        reasons.append(_ask(cmd, origin, why))
    for folder, start in dict.fromkeys(folders):
        if folder.startswith("$ORIGIN/") or folder == "$ORIGIN":
            continue  # jq's own installation
        base = folder if folder.startswith(("/", "~")) else posixpath.join(start, folder)
        for suffix in suffixes:
            candidate = posixpath.join(base, directive.path) + suffix
            try:
                verdict = check_path(policy, candidate, write=False, cwd=cwd, fs=fs)
            except PathError:
                return [_ask(cmd, candidate, "a module path that cannot be checked")]
            if verdict.decision is Decision.DENY:
                reasons += verdict.reasons
            elif verdict.decision is not Decision.ALLOW:
                why = f"loads {verdict.lexical}, outside every readable root"
                reasons.append(_ask(cmd, verdict.lexical, why))
    return reasons


def _module_env(
    reach: Reach, cmd: SimpleCommand, directive: Directive, origin: str, library: list[str], cwd: str
) -> list[Reason]:
    """DENY when a module the program imports from the workspace reads the environment
    (``def x: env.GITHUB_TOKEN;``): the program prints what the module gives it."""
    if directive.data or cmd.program is None:
        return []
    identifiers = ENV_IDENTIFIERS.get(cmd.program, frozenset())
    folders = [*((f, origin) for f in directive.search), *((f, cwd) for f in library), (".", origin)]
    for folder, start in dict.fromkeys(folders):
        if folder.startswith(("$ORIGIN", "~")):
            continue
        base = folder if folder.startswith("/") else posixpath.join(start, folder)
        for suffix in (".jq", f"/{posixpath.basename(directive.path)}.jq"):
            path = posixpath.normpath(posixpath.join(base, directive.path) + suffix)
            try:
                data = reach.read(path)
            except (OSError, OverBudget):
                continue
            found = sorted(identifiers & set(JQ_TOKEN.findall((data or b"").decode("utf-8", "replace"))))
            if found:
                return [
                    Reason(
                        Decision.DENY,
                        "hardline.credentials",
                        "built-in",
                        f"{path} ~ {found[0]}"[:200],
                        f"the jq module {path} reads the environment ({found[0]}): the program prints "
                        "what it gives, every secret in it (reading a credential: never done by an agent)",
                    )
                ]
    return []


def _ask(cmd: SimpleCommand, where: str, why: str) -> Reason:
    return Reason(
        Decision.ASK,
        "shell.jq-modules",
        "built-in",
        where[:200],
        f"'{cmd.program}': {why}: jq's module system reads what its directives name",
    )
