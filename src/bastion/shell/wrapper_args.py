"""The wrappers that rewrite the words they run instead of only skipping options: ``env``
(assignments, ``-S`` splitting, ``-C``/``-P``), ``xargs`` (arguments read from stdin) and an
agent's own ``bastion sandbox run … -- COMMAND`` line."""

from __future__ import annotations

import posixpath
import re
import shlex

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.envvars import assignments as _assignments
from bastion.shell.feeds import stdin_words
from bastion.shell.flags import parse_args
from bastion.shell.model import Access
from bastion.shell.programs import wrappers as W
from bastion.shell.self_verbs import SandboxedRun
from bastion.shell.walk_model import Redirect
from bastion.shell.words import Word, literal_word

E = Effect
_NAME_EQ = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def strip_env(ctx: Ctx) -> bool:
    """Strip ``env [OPTIONS] [NAME=VALUE…]``: its assignments and options (``-S`` splits a
    string into more words, ``-C``/``-P`` change where and what runs). False when nothing runs
    through it (``env`` alone prints every variable)."""
    args = list(ctx.words[1:])
    i = 0
    assigns: list[tuple[str, Word]] = []
    while i < len(args):
        w = args[i]
        v = w.value
        if v is None:
            break
        if v in ("-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"):
            i += 1
        elif v == "--":
            i += 1
            break
        elif v in W.ENV_VALUES or v.split("=")[0] in W.ENV_VALUES:
            key, eq, val = v.partition("=")
            value_word = literal_word(val) if eq else (args[i + 1] if i + 1 < len(args) else literal_word(""))
            i += 1 if eq else 2
            if W.ENV_ALIASES.get(key, key) == "-S":
                if value_word.value is None:
                    ctx.dynamic = True
                    break
                try:
                    split = [literal_word(t) for t in shlex.split(value_word.value)]
                except ValueError:
                    ctx.errors.append("env -S string could not be split")
                    split = []
                args = [*split, *args[i:]]
                i = 0
            elif W.ENV_ALIASES.get(key, key) == "-C":
                ctx.carry(
                    E.UNKNOWN,
                    note=f"env -C: runs in directory {value_word.text}, "
                    "so its relative paths are not the cwd's",
                )
            elif key == "-P":
                ctx.carry(E.CODE, note="env -P: programs are looked up in another PATH")
        elif v.startswith("-") and len(v) > 1 and "=" not in v:
            i += 1  # combined short options such as -iv
        elif _NAME_EQ.match(v):
            key, _, val = v.partition("=")
            assigns.append((key, literal_word(val)))
            i += 1
        else:
            break
    ctx.wrappers.append("env")
    _assignments(ctx, tuple(assigns))
    rest = args[i:]
    if not rest:
        ctx.words = [ctx.words[0]]
        ctx.program = "env"
        ctx.disclose("env without a command prints every variable")
        return False
    ctx.words = rest
    return True


def _own_stdin(ctx: Ctx) -> Redirect | None:
    """The heredoc / here-string xargs reads: its own, or its carrier's unless a pipe feeds it."""
    own = [r for r in ctx.raw.redirects if r.op in ("<<", "<<-", "<<<")]
    return own[-1] if own else (None if ctx.raw.in_pipeline else ctx.stdin_data)


def _list_file(ctx: Ctx, named: list[str | None]) -> str | None:
    """The file xargs reads its arguments from: ``-a F``, or its own ``< F`` (which wins over
    a pipe into it)."""
    if named:
        return named[-1]
    own = [r.target.value for r in ctx.raw.redirects if r.op == "<" and r.target is not None]
    return own[-1] if own else None


def _with_lines(word: Word, token: str, entries: tuple[str, bool] | None) -> list[Word]:
    """``word`` as ``xargs -I TOKEN`` gives it to the command: each line put in its place."""
    if token not in (word.value or ""):
        return [word]
    return _each_entry(word, token, entries) or [Word(word.text, None, word.sketch.replace(token, "\x00"))]


def _each_entry(word: Word, token: str, entries: tuple[str, bool] | None) -> list[Word]:
    """``~/{}`` fed the names of ``ls ~``'s entries is each entry of HOME: the globs ``~/*``
    (and ``~/.[!.]*`` with ``ls -A``), as bash would expand them, and ``~/..`` (a name may
    hold a newline). Empty when ``word`` is not the folder's path followed by the token."""
    value = word.value or ""
    if entries is None or not value.endswith(token) or value.count(token) != 1:
        return []
    folder, hidden = entries
    prefix = value[: -len(token)]
    if (posixpath.normpath(prefix) if prefix else ".") != posixpath.normpath(folder) or not (
        prefix.endswith("/") or not prefix
    ):
        return []
    globs = [f"{prefix}*", *([f"{prefix}.[!.]*"] if hidden else [])]
    # ls prints a name as it is to a pipe: one holding a newline gives xargs a line "..".
    return [*(Word(word.text, g, g, glob=True, pattern=g) for g in globs), literal_word(f"{prefix}..")]


def strip_xargs(ctx: Ctx) -> None:
    """Strip ``xargs [OPTIONS]``: what it runs gets arguments only known at run time
    (``-I TOKEN`` makes each word holding the token one of them)."""
    parsed, stop = parse_args(ctx.words[1:], W.XARGS_VALUES, W.XARGS_ALIASES, stop_at_positional=True)
    for w in parsed.values("-a"):
        ctx.path(w, Access.READ, "xargs argument file")
    rest = list(ctx.words[1 + stop :]) or [literal_word("echo")]
    repl = parsed.values("-I")
    token = repl[0].value if repl else ("{}" if parsed.has("-i") else None)
    if token:
        entries = ctx.raw.fed_entries
        rest = [*rest[:1], *(x for w in rest[1:] for x in _with_lines(w, token, entries))]
    ctx.wrappers.append("xargs")
    words = ctx.raw.fed_words if ctx.raw.fed_words is not None else stdin_words(_own_stdin(ctx))
    split = parsed.has("-0", "-d", "-E", "-e") or any(
        (w.value or "-").startswith(("--null", "--delimiter", "--eof")) for w in ctx.words[1 : 1 + stop]
    )  # xargs splits its input otherwise than on blanks
    if words is not None and not (token or parsed.values("-a") or split):
        ctx.words = [*rest, *(literal_word(w) for w in words)]  # echo's words, as xargs passes them
        ctx.note("xargs appends the words its stdin gives it")
        return
    ctx.extra_args = not token  # -I puts each line in its words and appends nothing
    # one argument per listed file, unless they come from a file or are spliced into words
    ctx.fed_from = ctx.raw.fed_from if not (token or parsed.values("-a")) else None
    ctx.fed_list = _list_file(ctx, [w.value for w in parsed.values("-a")])
    ctx.note("xargs appends arguments read from stdin (only known at run time)")
    ctx.words = rest


def strip_sandbox_run(ctx: Ctx, run: SandboxedRun) -> None:
    """Look through ``bastion sandbox run OPTIONS -- COMMAND`` to what it runs; the folders it
    would open for writing are writes it asks for."""
    ctx.wrappers.append("bastion sandbox run")
    for value in run.writes:
        if value is None:
            ctx.raise_at(-1, E.UNKNOWN, note="bastion sandbox run --write only known at run time")
            continue
        ctx.add(E.WRITE, note="bastion sandbox run --write opens a folder for writing")
        ctx.path(literal_word(value), Access.WRITE, "bastion sandbox run --write")
    if run.cwd is not None:
        ctx.raise_at(-1, E.UNKNOWN, note="bastion sandbox run --cwd: the command runs where it chose")
    ctx.words = ctx.words[1 + run.command :]
