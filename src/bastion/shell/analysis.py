"""``analyze``: parse a command string and classify every simple command in it.

Fail-closed: anything that cannot be decided (parse errors, unknown constructs, internal
errors, over-long input) is listed in ``ShellAnalysis.errors``.

Globs: a glob path argument keeps its literal text (``PathUse.why`` ends with "(glob)") when
only its last component is a pattern and that pattern cannot match a credential or
agent-control name (``paths.glob_is_safe``); otherwise its ``path`` is None (unknown).

``cd DIR`` moves later relative paths: they are reported joined to DIR (``cd`` to a
run-time value makes later relative paths unknown).
"""

from __future__ import annotations

import dataclasses

from bastion.call.effects import Effect
from bastion.shell.ctx import Outer, new_outer
from bastion.shell.memo import CommandMemo
from bastion.shell.model import (
    Access,
    PathUse,
    ShellAnalysis,
    SimpleCommand,
    new_analysis,
    replace_command,
    replace_path_use,
)
from bastion.shell.parser import MAX_COMMAND_BYTES, error_nodes, parse, unsafe_char
from bastion.shell.paths import root_like
from bastion.shell.resolve import quick_check, resolved
from bastion.shell.unwrap import Classifier
from bastion.shell.walk import walk
from bastion.shell.walk_model import FORK_LOOP, FunctionDef, Item, RawCommand


def analyze(command: str, *, memo: bool = True) -> ShellAnalysis:
    """Classify ``command``. Pure, never raises: failures become ``errors``. ``memo=False``
    classifies every simple command afresh (the same result, tests/shell/test_memo.py)."""
    if not isinstance(command, str):
        return ShellAnalysis(str(command), (), ("command is not text",))
    bad = unsafe_char(command)
    if bad is not None:
        return ShellAnalysis(command, (), (bad,))
    data = command.encode("utf-8")
    if len(data) > MAX_COMMAND_BYTES:
        return ShellAnalysis(command, (), (f"command too long ({len(data)} bytes > {MAX_COMMAND_BYTES})",))
    try:
        commands, errors = _analyze_source(data, new_outer(memo=memo))
        commands = _follow_cd(commands, cdpath="CDPATH" in command)
        commands.extend(_as_resolved(data, commands, memo))
    except Exception as exc:  # fail closed on any internal error (RecursionError included)
        return ShellAnalysis(command, (), (f"internal error: {type(exc).__name__}: {exc}",))
    if "\x00" in command:
        errors.append("command contains a NUL byte")
    return new_analysis(command, tuple(commands), tuple(dict.fromkeys(errors)) if errors else ())


def as_written(analysis: ShellAnalysis) -> ShellAnalysis:
    """``analysis`` without the commands decided only as they would run with the values the
    source spells out (``_as_resolved``): those may only make a decision stricter, never
    widen what a run is given (its write paths, its hosts)."""
    kept = tuple(c for c in analysis.commands if not c.resolved)
    return analysis if len(kept) == len(analysis.commands) else dataclasses.replace(analysis, commands=kept)


def _as_resolved(
    data: bytes, commands: list[SimpleCommand], memo: bool, outer: Outer | None = None
) -> list[SimpleCommand]:
    """The commands of the source as it would run with the values it gives its own
    variables and pure substitutions (``shell/resolve.py``) that differ from ``commands``:
    decided as well, so a value spelled out in the source is decided like its literal. A
    shell string (``outer``: ``bash -lc '…'``, how Codex runs every command) is resolved in
    its carrier's scope, its cds followed with the whole command's."""
    if not quick_check(data):
        return []
    text = resolved(parse(data).root_node, data)
    if text is None or unsafe_char(text) is not None or len(text.encode("utf-8")) > MAX_COMMAND_BYTES:
        return []
    extra, _ = _analyze_source(text.encode("utf-8"), outer or new_outer(memo=memo))
    # What a command is decided on beyond its words: a here-string it is fed (``echo CODE |
    # tclsh`` spelled ``tclsh <<< $'CODE'``) changes only what it discloses or its effects.
    seen = {(c.argv, c.paths, c.effects, c.discloses, c.catastrophic) for c in commands}
    note = f"as it runs with the values the command gives its own variables: {text[:160]}"
    return [
        replace_command(c, notes=(*c.notes, note), resolved=True)
        for c in (extra if outer is not None else _follow_cd(extra, cdpath="CDPATH" in text))
        if (c.argv, c.paths, c.effects, c.discloses, c.catastrophic) not in seen
    ]


def _analyze_source(data: bytes, outer: Outer) -> tuple[list[SimpleCommand], list[str]]:
    """One source at any nesting level: the top level, or a shell string (``outer`` is what
    its carrier hands it). Exactly the same code classifies both."""
    tree = parse(data)
    errors = error_nodes(tree.root_node)
    result = walk(tree.root_node, data, outer.scope, outer.ids, outer.memo)
    errors.extend(result.errors)
    classifier = Classifier(_recurse, integers=result.vars.integers)
    memo = CommandMemo() if outer.memo and _repeats(result.items) else None
    commands = _items(classifier, memo, result.items, outer, errors)
    return commands, errors


def _repeats(items: list[Item]) -> bool:
    """Whether some raw command's text comes twice (else a memo cannot be used)."""
    if len(items) < 2:
        return False
    texts = [item.text for item in items if isinstance(item, RawCommand)]
    return len(set(texts)) < len(texts)


def _recurse(source: str, outer: Outer) -> tuple[list[SimpleCommand], list[str]]:
    bad = unsafe_char(source)  # e.g. $'\U000e55d0' decoded inside `bash -c`
    if bad is not None:
        return [], [bad]
    nested = source.encode("utf-8")
    if len(nested) > MAX_COMMAND_BYTES:
        return [], ["nested command too long"]
    commands, errors = _analyze_source(nested, outer)
    return [*commands, *_as_resolved(nested, commands, outer.memo, outer)], errors


def _items(
    c: Classifier,
    memo: CommandMemo | None,
    items: list[Item] | tuple[Item, ...],
    outer: Outer,
    errors: list[str],
) -> list[SimpleCommand]:
    out: list[SimpleCommand] = []
    for item in items:
        if isinstance(item, FunctionDef):
            body = _items(c, memo, item.body, outer, errors)
            out.extend(body)
            c.define(item.name, _summary(item, body))
            continue
        cmds = c.command(item, list(item.words), outer) if memo is None else memo.command(c, item, outer)
        if item.context or item.background:
            out.extend(_with_context(cmd, item) for cmd in cmds)
        else:
            out.extend(cmds)  # a top-level foreground command (see _with_context)
    errors.extend(c.errors)
    c.errors.clear()
    return out


def _with_context(cmd: SimpleCommand, raw: RawCommand) -> SimpleCommand:
    if not raw.context and not raw.background:
        return cmd  # the common case: a top-level foreground command
    extra = tuple(n for n in raw.context if n not in cmd.notes)
    if raw.background:
        extra += ("runs in the background",)
    if FORK_LOOP in raw.context and not cmd.catastrophic:
        return replace_command(
            cmd,
            notes=cmd.notes + extra,
            pure_reader=False,
            catastrophic="fork bomb: an endless loop starts background processes",
            effects=cmd.effects | {Effect.DESTRUCTIVE, Effect.SYSTEM},
        )
    return replace_command(cmd, notes=cmd.notes + extra) if extra else cmd


def _self_calls(items: tuple[Item, ...], name: str) -> bool:
    for item in items:
        if isinstance(item, FunctionDef):
            if _self_calls(item.body, name):
                return True
        elif item.words and item.words[0].value == name and (item.in_pipeline or item.background):
            return True
    return False


def _summary(fn: FunctionDef, body: list[SimpleCommand]) -> SimpleCommand:
    effects: set[Effect] = set()
    paths: list[PathUse] = []
    notes: list[str] = [f"shell function {fn.name}"]
    catastrophic = next((b.catastrophic for b in body if b.catastrophic), None)
    if _self_calls(fn.body, fn.name):
        catastrophic = f"fork bomb: function {fn.name} calls itself in a pipeline/background"
        effects.update({Effect.DESTRUCTIVE, Effect.SYSTEM})
    for b in body:
        effects.update(b.effects)
        paths.extend(b.paths)
        notes.extend(n for n in b.notes if n not in notes)
    if not effects:
        effects.add(Effect.READ)
    return SimpleCommand(
        text=fn.text,
        argv=(fn.name,),
        program=fn.name,
        spelling=fn.name,
        known=True,
        dynamic=any(b.dynamic for b in body),
        effects=frozenset(effects),
        paths=tuple(paths),
        hosts=tuple(h for b in body for h in b.hosts),
        pure_reader=all(b.pure_reader for b in body) and not catastrophic,
        catastrophic=catastrophic,
        notes=tuple(notes),
        self_change=next((b.self_change for b in body if b.self_change), None),
    )


def _follow_cd(commands: list[SimpleCommand], *, cdpath: bool = False) -> list[SimpleCommand]:
    """Join relative paths to the directory earlier `cd`s moved to. A cd moves the later
    commands of its own scope and of the scopes inside it: after a subshell, pipeline stage,
    substitution or `sh -c` ends, the directory is the one before it. After a cd whose target
    is a glob, a run-time value, or looked up in a ``CDPATH`` the command sets, later relative
    paths are unknown."""
    prefixes: dict[tuple[int, ...], str | None] = {(): ""}
    moved = False  # no cd yet: every command runs in the call's cwd
    out: list[SimpleCommand] = []
    for cmd in commands:
        prefix = _prefix(prefixes, cmd.scope) if moved else ""
        if prefix != "" and cmd.paths:
            cmd = _root_delete(replace_command(cmd, paths=tuple(_moved(p, prefix) for p in cmd.paths)))
        out.append(cmd)
        if cmd.program in ("cd", "pushd", "popd") or (cmd.dynamic and cmd.argv[:1] == ("cd",)):
            args = [a for a in cmd.argv[1:] if not a.startswith("-") or a == "-"]
            if cmd.program == "popd" or args[:1] == ["-"] or cmd.dynamic:
                prefix = None
            elif not args:
                prefix = "~"
            else:  # the cd's own argument, already joined to the current prefix above
                use = cd_target(cmd)
                target = use.path if use is not None and use.pattern is None else None
                if cdpath and use is not None and not use.raw.startswith(("/", "~", "./", "../")):
                    target = None  # CDPATH may send a bare name anywhere
                prefix = target
            prefixes[cmd.scope] = prefix
            moved = True
    return out


def cd_target(cmd: SimpleCommand) -> PathUse | None:
    """The directory argument of a cd (a redirection of a list, ``cd d && echo x > f``,
    is reported on the cd too: it is not the target)."""
    return next((p for p in cmd.paths if p.why.startswith("argument of")), None)


def _prefix(prefixes: dict[tuple[int, ...], str | None], scope: tuple[int, ...]) -> str | None:
    """The directory of the innermost enclosing scope that a cd moved."""
    for k in range(len(scope), -1, -1):
        if scope[:k] in prefixes:
            return prefixes[scope[:k]]
    return ""


def _root_delete(cmd: SimpleCommand) -> SimpleCommand:
    """`cd / && rm -rf *`: a relative delete that the cd makes root-like is catastrophic."""
    if cmd.catastrophic:
        return cmd
    for use in cmd.paths:
        target = use.path or use.pattern
        why = root_like(target) if use.access is Access.DELETE and target else None
        if why:
            return replace_command(
                cmd,
                catastrophic=f"{cmd.program or 'delete'} of {why} (after cd)",
                effects=cmd.effects | {Effect.DESTRUCTIVE},
                pure_reader=False,
                notes=(*cmd.notes, f"deletes {why} after cd"),
            )
    return cmd


def _join(prefix: str, path: str) -> str:
    if path.startswith(("/", "~")) or not prefix:
        return path
    return prefix + path if prefix.endswith("/") else f"{prefix}/{path}"  # = posixpath.join


def _moved(use: PathUse, prefix: str | None) -> PathUse:
    """A relative path (and glob pattern) after ``cd``: joined to the cd target, unknown
    after a cd to a run-time value."""
    spelled = use.path if use.path is not None else use.pattern
    if spelled is None or spelled.startswith(("/", "~")):
        return use
    if prefix is None:
        why = f"{use.why} (after cd to an unknown directory)"
        return replace_path_use(use, path=None, pattern=None, why=why)
    pattern = _join(_escape_glob(prefix), use.pattern) if use.pattern is not None else None
    path = _join(prefix, use.path) if use.path is not None else None
    return replace_path_use(use, path=path, pattern=pattern, why=f"{use.why} (after cd {prefix})")


def _escape_glob(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)
