"""Handler ``builtin``: shell builtins that assign, evaluate or change the shell.

A builtin stays a pure reader only in its listing / querying forms and when it assigns an
ordinary variable; trap actions, mapfile/compgen callbacks and alias values are shell code,
classified like ``sh -c`` strings (a trap is code: ``trap 'rm -rf ~' EXIT`` is catastrophic).
"""

from __future__ import annotations

from collections.abc import Callable

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.envvars import INJECTION_PREFIXES, host_var, record_hosts
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.programs import builtins as B
from bastion.shell.programs import wrappers as W
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect


def _unknown(ctx: Ctx, why: str) -> None:
    ctx.add(E.UNKNOWN, note=why)


def _options(ctx: Ctx, name: str, args: list[Word]) -> Parsed | None:
    """Parse with the builtin's own option table; None (and unknown) on any other option
    or on an option word only known at run time."""
    with_value, plain = B.OPTIONS[name]
    parsed, _ = parse_args(args, with_value)
    for flag in parsed.flags:
        if flag.name not in with_value and flag.name not in plain:
            _unknown(ctx, f"{name} {flag.name}: option not in the knowledge base")
            return None
    if any(w.value is None for w in args[: len(args) - len(parsed.positionals)]):
        _unknown(ctx, f"{name}: an option only known at run time")
        return None
    return parsed


def _code(ctx: Ctx, word: Word, label: str) -> None:
    """A string the shell runs later (trap action, callback, alias value)."""
    ctx.add(E.CODE, note=f"{label} is shell code")
    if word.value is None:
        ctx.dynamic = True
        ctx.note(f"{label} only known at run time")
        return
    ctx.inner.extend(ctx.run_here(ctx, word.value, label))


def _targets(ctx: Ctx, name: str, words: list[Word]) -> None:
    for w in words:
        target = (w.value or "").partition("[")[0]
        if w.value is None or "[" in w.value:
            _unknown(ctx, f"{name} assigns a variable only known at run time: {w.text}")
        elif target in B.SPECIAL_TARGETS or target.startswith("BASH_"):
            _unknown(ctx, f"{name} assigns the special shell variable {target}")


def read(ctx: Ctx, args: list[Word]) -> None:
    parsed = _options(ctx, "read", args)
    if parsed is not None:
        _targets(ctx, "read", [*parsed.values("-a"), *parsed.positionals])


def mapfile(ctx: Ctx, args: list[Word]) -> None:
    parsed = _options(ctx, ctx.program, args)
    if parsed is None:
        return
    _targets(ctx, ctx.program, list(parsed.positionals))
    for callback in parsed.values("-C"):
        _code(ctx, callback, f"{ctx.program} -C callback")


def compgen(ctx: Ctx, args: list[Word]) -> None:
    parsed = _options(ctx, "compgen", args)
    if parsed is None:
        return
    for words in parsed.values("-W"):  # the word list is expanded: substitutions run
        _code(
            ctx,
            Word(words.text, f": {words.value}" if words.value is not None else None, words.sketch),
            "compgen -W word list",
        )
    for cmd in parsed.values("-C"):
        _code(ctx, cmd, "compgen -C command")
    if parsed.has("-F", "-V"):
        _unknown(ctx, "compgen -F calls a shell function / -V assigns a variable")


def hash_(ctx: Ctx, args: list[Word]) -> None:
    parsed = _options(ctx, "hash", args)
    if parsed is not None and parsed.has("-p"):
        ctx.add(E.CODE, note="hash -p makes a command name run another program")


def enable(ctx: Ctx, args: list[Word]) -> None:
    parsed = _options(ctx, "enable", args)
    if parsed is None:
        return
    if parsed.has("-f", "-d"):
        ctx.add(E.CODE, note="enable -f loads a shared object into the shell")
    elif parsed.positionals:
        ctx.add(E.CODE, note="enable / enable -n changes what a command name runs")


def shopt(ctx: Ctx, args: list[Word]) -> None:
    parsed = _options(ctx, "shopt", args)
    if parsed is not None and parsed.has("-s", "-u"):
        _unknown(ctx, "shopt -s/-u changes how later words expand (globs, aliases)")


def trap(ctx: Ctx, args: list[Word]) -> None:
    values = [w.value for w in args]
    if not args or values[0] in ("-l", "-p", "-P"):
        return  # lists
    rest = args[1:] if values[0] == "--" else args
    if not rest:
        return
    action = rest[0]
    if action.value in ("", "-") or len(rest) == 1:
        return  # `trap '' INT` ignores, `trap - INT` / `trap INT` resets: no code
    _code(ctx, action, "trap action")


def alias(ctx: Ctx, args: list[Word]) -> None:
    for w in args:
        if w.value is None:
            _unknown(ctx, "alias of a value only known at run time")
        elif "=" in w.value:
            name, _, value = w.value.partition("=")
            _code(ctx, Word(w.text, value, value), f"alias {name}")


def set_(ctx: Ctx, args: list[Word]) -> None:
    """`set -euo pipefail` changes error handling only; `set -a` / `-o allexport` exports
    every later assignment, `-k` takes assignments from arguments: not pure readers."""
    i = 0
    while i < len(args):
        v = args[i].value
        if v is None:
            _unknown(ctx, "set option only known at run time")
            return
        if v in ("--", "-") or not v.startswith(("-", "+")):
            return  # positional parameters: data
        letters = v[1:]
        for ch in letters:
            if ch == "o":
                name = args[i + 1].value if i + 1 < len(args) else ""
                i += 1 if i + 1 < len(args) else 0
                if name and name not in B.SET_OPTIONS:
                    _unknown(ctx, f"set -o {name}: changes the shell beyond error handling")
                    return
            elif ch not in B.SET_LETTERS:
                _unknown(ctx, f"set -{ch}: changes the shell beyond error handling")
                return
        i += 1


def declare(ctx: Ctx, args: list[Word]) -> None:
    """declare/typeset/local/readonly/export: a pure reader only when it lists, or sets
    known-harmless variables (`export LANG=C`) to literal values."""
    name = ctx.program
    flags = [w for w in args if (w.value or "-").startswith(("-", "+"))]
    for w in flags:
        if w.value is None or w.value not in B.DECLARE_LISTING:
            _unknown(ctx, f"{name} {w.text}: sets attributes or values")
            return
    assigns = [*ctx.raw.assigns]
    for w in args:  # `command export X=1`: the assignment is an ordinary word
        v = w.value or ""
        if "=" in v and not v.startswith(("-", "+")):
            var, _, val = v.partition("=")
            assigns.append((var, Word(v, val, val)))
    for var, value in assigns:
        harmless = var in W.HARMLESS_VARS or var.startswith(W.HARMLESS_PREFIXES)
        if var in W.INJECTION_VARS or var.startswith(INJECTION_PREFIXES):
            ctx.add(E.CODE, note=f"program injection: {name} {var}= changes what programs run")
        elif host_var(var):
            ctx.add(E.NETWORK, note=f"{name} {var}= sends later traffic to another host")
            record_hosts(ctx, var, value)
        elif not harmless or value.value is None:
            _unknown(ctx, f"{name} {var}: sets a variable later commands may read")


_TABLE: dict[str, Callable[[Ctx, list[Word]], None]] = {
    "read": read, "mapfile": mapfile, "readarray": mapfile, "compgen": compgen,
    "hash": hash_, "enable": enable, "shopt": shopt, "trap": trap, "alias": alias,
    "set": set_, "declare": declare, "typeset": declare, "local": declare,
    "readonly": declare, "export": declare,
}  # fmt: skip


def builtin(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    _TABLE[ctx.program](ctx, list(ctx.words[1:]))


HANDLERS = {"builtin": builtin}
