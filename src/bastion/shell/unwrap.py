"""Turn one raw command into SimpleCommands: look through wrappers (sudo, env, xargs, nice…),
resolve the program, apply its knowledge-base entry, and recurse into inner commands."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass

from bastion.call.effects import Effect
from bastion.shell import paths as P
from bastion.shell.classify import Handler, apply_spec, finish, redirect_paths
from bastion.shell.ctx import Ctx, Outer, new_outer
from bastion.shell.disclosure import assigning_builtin, printed_credentials, self_arguments
from bastion.shell.envvars import assignments as _assignments
from bastion.shell.flags import parse_args
from bastion.shell.handlers_builtins import HANDLERS as BUILTIN_HANDLERS
from bastion.shell.handlers_code import HANDLERS as CODE_HANDLERS
from bastion.shell.handlers_fs import HANDLERS as FS_HANDLERS
from bastion.shell.handlers_git import HANDLERS as GIT_HANDLERS
from bastion.shell.handlers_git import git
from bastion.shell.handlers_net import HANDLERS as NET_HANDLERS
from bastion.shell.handlers_system import HANDLERS as SYSTEM_HANDLERS
from bastion.shell.model import Access, PathUse, SimpleCommand
from bastion.shell.programs import wrappers as W
from bastion.shell.programs.builtins import RESERVED_WORDS
from bastion.shell.programs.multicall import as_utility, response_files
from bastion.shell.programs.registry import lookup
from bastion.shell.programs.wipes import wipe
from bastion.shell.programs.wrappers import WRAPPERS
from bastion.shell.self_verbs import sandboxed_run
from bastion.shell.servers import HANDLERS as SERVER_HANDLERS
from bastion.shell.subscripts import evaluated_name
from bastion.shell.walk_model import RawCommand, Redirect
from bastion.shell.words import Word, literal_word
from bastion.shell.wrapper_args import strip_env, strip_sandbox_run, strip_xargs

E = Effect
MAX_DEPTH = 8


def _handlers() -> dict[str, Handler]:
    table: dict[str, Handler] = {
        **FS_HANDLERS,
        **NET_HANDLERS,
        **CODE_HANDLERS,
        **SYSTEM_HANDLERS,
        **GIT_HANDLERS,
        **BUILTIN_HANDLERS,
        **SERVER_HANDLERS,
    }
    table["git"] = lambda c, s, p, w: git(c, s, p, w, table)
    return table


HANDLERS = _handlers()
#: Parse + classify a nested shell string under what its carrier hands it.
Recurse = Callable[[str, Outer], tuple[list[SimpleCommand], list[str]]]


@dataclass(slots=True, init=False)
class Classifier:
    recurse: Recurse
    functions: dict[str, SimpleCommand]
    errors: list[str]
    # Variables this source only ever sets to integer literals: safe in arithmetic.
    integers: frozenset[str]
    # Bumped by every function definition: what a command word means changed.
    generation: int

    def __init__(self, recurse: Recurse, integers: frozenset[str] = frozenset()) -> None:
        self.recurse = recurse
        self.functions = {}
        self.errors = []
        self.integers = integers
        self.generation = 0

    def define(self, name: str, summary: SimpleCommand) -> None:
        """A shell function defined by the source: later calls of ``name`` run it."""
        self.functions[name] = summary
        self.generation += 1

    # -- callbacks handed to handlers -------------------------------------------------
    def run_words(self, ctx: Ctx, words: list[Word], label: str) -> list[SimpleCommand]:
        """The same raw command runs a program (find -exec, xargs, uv run): its own
        redirections and assignments are already on the outer command."""
        outer = _outer(ctx, label, ctx.outer.redirects, child=True)
        return self.command(ctx.raw, words, outer, applied=True, extra_args=ctx.extra_args)

    def run_source(self, ctx: Ctx, source: str, label: str) -> list[SimpleCommand]:
        """A shell string run by a child shell: classified by the same code as the top
        level, every command in it under the carrier's redirections (its stdin/stdout) and
        environment."""
        return self._source(ctx, source, label, child=True)

    def run_here(self, ctx: Ctx, source: str, label: str) -> list[SimpleCommand]:
        """A shell string run by this shell (eval, a trap, an alias): its cd moves what
        follows."""
        return self._source(ctx, source, label, child=False)

    def _source(self, ctx: Ctx, source: str, label: str, child: bool) -> list[SimpleCommand]:
        if ctx.depth + 1 > MAX_DEPTH:
            ctx.errors.append(f"nested shell strings deeper than {MAX_DEPTH}")
            return []
        outer = _outer(ctx, label, (*ctx.outer.redirects, *ctx.raw.redirects), child=child)
        cmds, errors = self.recurse(source, outer)
        ctx.errors.extend(f"in {label}: {e}" for e in errors)
        return cmds

    # -- the main entry -----------------------------------------------------------------
    def command(
        self,
        raw: RawCommand,
        words: list[Word],
        outer: Outer,
        applied: bool = False,
        extra_args: bool = False,
    ) -> list[SimpleCommand]:
        """``applied``: the raw command's redirections and assignments were already applied
        to the command that runs this one (``run_words``); nothing else differs by level."""
        ctx = Ctx(
            raw, list(words), "", self.run_words, self.run_source, self.run_here, list(outer.wrappers), outer
        )
        ctx.scope = outer.scope if applied else raw.scope
        if outer.depth:  # what a carrier hands to what it runs
            ctx.effects.update(outer.effects)
            ctx.carried.update(outer.effects)
            ctx.carried_hosts.extend(outer.hosts)
            ctx.carried_notes.extend(outer.notes)
            ctx.hosts.extend(outer.hosts)
            ctx.notes.extend(outer.notes)
            ctx.depth = outer.depth
        ctx.extra_args = extra_args
        if not applied:
            if outer.paths:
                ctx.redirected.extend(outer.paths)
            if raw.redirects or outer.redirects:
                redirect_paths(ctx, (*outer.redirects, *raw.redirects))
            if raw.assigns and raw.kind != "declare":  # declare/export judge their own
                _assignments(ctx, raw.assigns, standalone=not words)
        self._evaluates(ctx, raw, words)
        if (
            not words
            and raw.kind in ("assign", "unset", "arith")
            and ctx.effects <= {E.READ}
            and not (ctx.paths or ctx.redirected or ctx.evaluated or ctx.inner)
        ):
            return []  # a plain shell-variable assignment runs nothing
        result = [*ctx.inner, self._no_program(ctx)] if not words else self._unwrap(ctx)
        self.errors.extend(ctx.errors)
        return result

    def _evaluates(self, ctx: Ctx, raw: RawCommand, words: list[Word]) -> None:
        """${x@P}, ${!x}, arithmetic on a variable that may hold code: dynamic."""
        names = [n for n in raw.arith if n not in self.integers]
        if names:
            ctx.evaluated = f"arithmetic on {names[0]!r}, a value only known at run time"
            return
        checked: list[Word] = words
        if raw.assigns or raw.redirects or ctx.outer.redirects:
            targets = [r.target for r in (*ctx.outer.redirects, *raw.redirects) if r.target]
            checked = [*words, *(v for _, v in raw.assigns), *targets]
        for w in checked:
            if not (w.prompt_expand or w.arith):
                continue  # the common case
            if w.prompt_expand:
                ctx.evaluated = f"{w.text!r}: prompt expansion runs what a variable holds"
                return
            bad = [n for n in w.arith if n not in self.integers]
            if bad:
                ctx.evaluated = (
                    f"{w.text!r} evaluates {bad[0]!r} as arithmetic (a run-time value there can run code)"
                )
                return

    def _no_program(self, ctx: Ctx) -> SimpleCommand:
        kind = ctx.raw.kind
        ctx.known = True
        if ctx.effects <= {E.READ}:
            ctx.reader = True
        ctx.note(f"{kind} without a program")
        cmd = finish(ctx, "", dynamic=False)
        return cmd

    def _unwrap(self, ctx: Ctx) -> list[SimpleCommand]:
        while True:
            if not ctx.words:
                ctx.add(E.UNKNOWN, note="wrapper without a command")
                return [*ctx.inner, finish(ctx, "", dynamic=False)]
            head = ctx.words[0]
            if head.sketch.endswith("bastion") and posixpath.basename(head.sketch) == "bastion":
                # Bastion's own CLI by any path, even one only known at run time
                self_arguments(ctx, ctx.words[1:])
                run = sandboxed_run([w.value for w in ctx.words[1:]])
                if run is not None and head.value is not None:
                    strip_sandbox_run(ctx, run)
                    continue
            if head.value is None or head.glob or head.prompt_expand:
                ctx.add(E.UNKNOWN, note=f"command word {head.text!r} only known at run time")
                ctx.known = False
                return [*ctx.inner, finish(ctx, head.text, dynamic=True)]
            name = head.value
            if name in RESERVED_WORDS and head.text == name:
                ctx.errors.append(f"reserved word {name!r} in command position")
            if "/" in name:
                folder = posixpath.dirname(P.normalise(name))
                ctx.program = posixpath.basename(name.rstrip("/"))
                if folder not in P.STANDARD_BIN_DIRS:
                    return self._foreign(ctx, name, head.text)
            else:
                ctx.program = name
            if ctx.program in self.functions and "/" not in name:
                return [*ctx.inner, self._call(ctx, self.functions[ctx.program])]
            if ctx.program in WRAPPERS:
                if not self._wrapper(ctx, WRAPPERS[ctx.program]):
                    break
                continue
            if ctx.program == "env":
                if not strip_env(ctx):
                    break
                continue
            if ctx.program == "xargs":
                strip_xargs(ctx)
                continue
            if as_utility(ctx):  # `cmake -E rm -rf X` is `rm -rf X`
                continue
            break
        return self._classify(ctx, ctx.words[0].text)

    def _foreign(self, ctx: Ctx, name: str, spelling: str) -> list[SimpleCommand]:
        ctx.known = False
        ctx.add(E.UNKNOWN, note=f"program given by a path outside the system bin dirs: {name}")
        if not name.startswith("/"):
            ctx.add(E.CODE, note="runs a local script or binary")
        ctx.paths.append(PathUse(name, Access.READ, spelling, "program run", runs="exec"))
        return [*ctx.inner, finish(ctx, spelling, dynamic=False)]

    def _classify(self, ctx: Ctx, spelling: str) -> list[SimpleCommand]:
        spec = lookup(ctx.program)
        if spec is None:
            ctx.known = False
            ctx.add(E.UNKNOWN, note=f"unknown program {ctx.program!r}")
            printed_credentials(ctx)  # a secret printer the tables know by name only
        else:
            apply_spec(ctx, spec, ctx.words[1:], HANDLERS)
            response_files(ctx)
            printed_credentials(ctx)
            assigning_builtin(ctx)
            ctx.catastrophic = ctx.catastrophic or wipe(ctx.program, [w.value for w in ctx.words[1:]])
            named = evaluated_name(ctx.program, tuple(ctx.words[1:]))
            if named is not None and not ctx.evaluated:
                ctx.evaluated = (
                    f"{named.text!r}: bash evaluates a variable name's subscript (a $(...) there runs)"
                )
        if (
            ctx.replaced
            and ctx.inner
            and not (ctx.paths or ctx.dynamic or ctx.evaluated or ctx.catastrophic or ctx.self_change)
        ):
            return ctx.inner  # a pure carrier: every inner command has its redirections
        cmd = finish(ctx, spelling, dynamic=ctx.dynamic)
        return [*ctx.inner, cmd]

    def _call(self, ctx: Ctx, body: SimpleCommand) -> SimpleCommand:
        ctx.known = True
        ctx.effects.update(body.effects)
        ctx.paths.extend(body.paths)
        ctx.hosts.extend(h for h in body.hosts if h not in ctx.hosts)
        ctx.catastrophic = ctx.catastrophic or body.catastrophic
        ctx.reader = body.pure_reader
        ctx.note(f"calls shell function {ctx.program} defined in this command")
        ctx.notes.extend(n for n in body.notes if n not in ctx.notes)
        return finish(ctx, ctx.words[0].text, dynamic=body.dynamic)

    def _wrapper(self, ctx: Ctx, spec: W.Wrapper) -> bool:
        """Strip one wrapper; False when nothing is run through it (classify it instead)."""
        name = ctx.program
        declared = spec.known | spec.takes_value | frozenset(spec.value_paths)
        takes = spec.takes_value | frozenset(spec.value_paths)
        parsed, stop = parse_args(
            ctx.words[1:],
            takes,
            spec.aliases,
            stop_at_positional=True,
            known=declared | spec.pairs,
            pairs=spec.pairs,
        )
        if spec.effects:
            ctx.add(*spec.effects, note=spec.note or f"{name} wrapper")
            ctx.carried.update(spec.effects)  # what it runs inherits them (nohup sh -c '…')
        for flag in parsed.flags:
            if not spec.declares(flag.name):
                # Its own options are what a wrapper does: one not known harmless is unknown.
                ctx.raise_at(-1, E.UNKNOWN, note=f"{name}: option {flag.text!r} is not in its table")
            access = spec.value_paths.get(flag.name)
            if access is not None and flag.value is not None:
                if access is not Access.READ and not P.is_harmless_target(flag.value.value or ""):
                    ctx.raise_at(-1, E.WRITE, note=f"{name} {flag.name} writes the file it names")
                ctx.path(flag.value, access, f"{name} {flag.name}")
        moved = next((f for f in parsed.flags if f.name in spec.elsewhere), None)
        if moved is not None:
            ctx.raise_at(
                -1, E.UNKNOWN, note=f"{name} {moved.text}: what the command names is only known at run time"
            )
        attached = next((f for f in parsed.flags if f.name in spec.attaches), None)
        if attached is not None:
            ctx.disclose(f"{name} {attached.text} attaches to a running process: what it holds, secrets too")
        rest = list(ctx.words[1 + stop :])
        ctx.wrappers.append(name)
        strings = parsed.values(*spec.shell_string) if spec.shell_string else []
        if spec.log_file:
            log = rest[0] if rest else literal_word(spec.log_file)
            if not (log.value and P.is_harmless_target(log.value)):
                ctx.add(E.WRITE, note=f"{name} writes a log of the session")
                ctx.path(log, Access.WRITE, f"{name} log file")
        if strings:
            self._shell_string(ctx, strings[0], f"{name} {spec.shell_string and '-c'}")
            return False
        if parsed.has(*spec.no_command):
            ctx.words = [ctx.words[0]]
            ctx.reader = True
            if name == "sudo" and parsed.has("-e", "--edit"):
                ctx.add(E.WRITE, note="sudoedit")
                for w in rest:
                    ctx.path(w, Access.WRITE, "sudo -e")
            elif name in ("command",):
                ctx.effects.add(E.READ)
                ctx.known = True
                ctx.words = [ctx.words[0], *rest]
                ctx.program = name
            return False
        if spec.skip and not parsed.has(*spec.skip_unless):
            if name == "flock" and rest:  # flock creates its lock file
                ctx.add(E.WRITE, note="flock creates its lock file")
                ctx.path(rest[0], Access.WRITE, "flock lock file")
            rest = rest[spec.skip :]
            if rest and rest[0].value in spec.shell_string and len(rest) > 1:  # flock F -c S
                self._shell_string(ctx, rest[1], f"{name} {rest[0].value}")
                return False
        if not rest:
            if parsed.has(*spec.shell_flags):
                ctx.add(E.CODE, E.UNKNOWN, note=f"{name} starts an interactive shell")
            ctx.words = [ctx.words[0]]
            return False
        if spec.join_as_shell:
            joined = rest
            if any(w.value is None for w in joined):
                ctx.dynamic = True
                ctx.words = [ctx.words[0], *joined]
                return False
            self._shell_string(ctx, literal_word(" ".join(w.value or "" for w in joined)), f"{name}")
            return False
        ctx.words = rest
        return True

    def _shell_string(self, ctx: Ctx, word: Word, label: str) -> None:
        ctx.add(E.CODE)
        if word.value is None:
            ctx.dynamic = True
            ctx.note(f"{label} runs a string only known at run time")
            return
        ctx.inner.extend(self.run_source(ctx, word.value, label))
        ctx.replaced = True


def _outer(ctx: Ctx, label: str, redirects: tuple[Redirect, ...], child: bool) -> Outer:
    """What a command passes to what it runs: its wrappers, privilege, what its environment
    carries, the given redirections, and its scope (a new one for a child process)."""
    return new_outer(
        scope=(*ctx.scope, next(ctx.outer.ids)) if child else ctx.scope,
        ids=ctx.outer.ids,
        wrappers=(*ctx.wrappers, label),
        effects=frozenset(ctx.effects & {E.PRIVILEGE}) | frozenset(ctx.carried),
        hosts=tuple(ctx.carried_hosts),
        notes=tuple(ctx.carried_notes),
        redirects=redirects,
        paths=(*ctx.outer.paths, *ctx.carried_paths),
        depth=ctx.depth + 1,
        memo=ctx.outer.memo,
    )
