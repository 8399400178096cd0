"""Apply a knowledge-base ``Spec`` to an argv, and turn the finished state into a
``SimpleCommand``. Program-specific logic lives in the handler modules."""

from __future__ import annotations

from collections.abc import Callable

from bastion.call.effects import Effect
from bastion.shell import paths as P
from bastion.shell.ctx import Ctx, path_use
from bastion.shell.disclosure import names_credentials_dir
from bastion.shell.flags import NUMERIC, Flag, Parsed, parse_args
from bastion.shell.hosts import any_host, bare_host, file_url_path
from bastion.shell.model import Access, PathUse, SimpleCommand, new_command, read_below
from bastion.shell.programs.spec import OPEN_HANDLERS, Spec
from bastion.shell.walk_model import Redirect
from bastion.shell.words import Word

Handler = Callable[[Ctx, Spec, Parsed, list[Word]], None]
_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_READ_OPS = frozenset({"<", "<&"})
#: What a plain writer may do: read its sources, write its targets, move (delete) a source.
_PLAIN_WRITES = frozenset({Effect.READ, Effect.WRITE, Effect.DELETE})


def _parse(spec: Spec, args: list[Word], stop: bool = False) -> tuple[Parsed, int]:
    return parse_args(
        args, spec.takes_value, spec.aliases, stop, spec.known, spec.numeric, spec.optional, spec.pairs
    )


def resolve_spec(
    ctx: Ctx, spec: Spec, args: list[Word], label: str, at: int = -1
) -> tuple[Spec, list[Word], int]:
    """Follow subcommands (``git remote add``, ``docker volume rm``) down to the spec that
    applies, returning it with the words after the subcommand and the argv index of the
    word that chose it (``at``: -1 for the program itself)."""
    while spec.subcommands is not None:
        offset = len(ctx.words) - len(args)
        parsed, stop = _parse(spec, args, stop=True)
        _apply_flags(ctx, spec, parsed, offset)
        if stop >= len(args):
            return spec, [], at  # bare program: the spec's own defaults
        sub_word = args[stop]
        sub = sub_word.value
        nxt = spec.subcommands.get(sub) if sub is not None else None
        if nxt is None:
            if spec.other_sub is None:
                ctx.raise_at(
                    offset + stop, Effect.UNKNOWN, note=f"{label}: unknown subcommand {sub_word.text!r}"
                )
                return Spec(open_args=True), args[stop + 1 :], offset + stop
            nxt = spec.other_sub
        _raise_spec(ctx, nxt, offset + stop)
        label = f"{label} {sub_word.text}"
        spec, args, at = nxt, args[stop + 1 :], offset + stop
    return spec, args, at


def apply_spec(ctx: Ctx, spec: Spec, args: list[Word], handlers: dict[str, Handler], at: int = -1) -> None:
    """Classify ``args`` by ``spec``; ``at`` is the argv index of the word that chose
    ``spec`` (a git subcommand), whose effects that word raises."""
    ctx.reader = True  # ctx.add() of any non-read effect clears it
    if ctx.base is None:
        ctx.base = frozenset(spec.effects)
    top = spec
    if len(args) == 1 and args[0].value in spec.info:  # make --version, cargo --help
        ctx.effects.add(Effect.READ)
        ctx.note(f"{ctx.program} {args[0].value} only prints information")
        return
    if at >= 0:
        _raise_spec(ctx, spec, at)
    spec, args, at = resolve_spec(ctx, spec, args, ctx.program, at)
    ctx.reader = ctx.reader and spec.reader
    ctx.plain_writer = spec.writer
    ctx.effects.update(spec.effects)
    if spec.note:
        ctx.note(spec.note)
    offset = len(ctx.words) - len(args)
    parsed, _ = _parse(spec, args)
    if (spec.caches or spec.cache_hosts) and not parsed.has(*spec.fetches_nothing):
        _caches(ctx, spec)
    _apply_flags(ctx, spec, parsed, offset)
    positionals = list(parsed.positionals)
    if spec.plus_unknown:
        for word in positionals:
            if word.value is None or word.value.startswith("+"):
                ctx.raise_at(
                    ctx.index_of(word), Effect.UNKNOWN, note=f"{ctx.program} {word.text}: a startup command"
                )
    access = spec.args
    recursive = spec.recursive
    for flag in parsed.flags:
        rule = spec.flags.get(flag.name)
        if rule is not None and rule.args is not None:
            access = rule.args
        recursive = recursive or (rule is not None and rule.recursive)
    rest = positionals
    if spec.lead and not parsed.has(*spec.lead_flags):
        rest = positionals[spec.lead :]
        if access is not None:  # `rg *`: bash expands the "pattern" into paths, shifting them
            for word in positionals[: spec.lead]:
                if word.glob:
                    ctx.path(word, access, f"glob in the pattern position of {ctx.program}")
    if spec.dest_last and not parsed.has("-t") and len(rest) >= 2:
        ctx.path(rest[-1], Access.WRITE, f"destination of {ctx.program}")
        rest = rest[:-1]
    if access is not None:
        first = len(ctx.paths)
        for word in rest:
            ctx.path(word, access, f"argument of {ctx.program}")
        if ctx.extra_args and ctx.fed_from is not None and access is Access.READ:
            # each a file below the folder the stage before xargs lists: read as below it
            why = f"{ctx.program} arguments from xargs: files listed below {ctx.fed_from}"
            ctx.paths.append(PathUse(ctx.fed_from, access, ctx.fed_from, why, recursive=True, as_words=True))
        elif ctx.extra_args:
            ctx.paths.append(
                PathUse(None, access, "", f"{ctx.program} argument from xargs", listed_in=ctx.fed_list)
            )
        if recursive:
            _recursive(ctx, first, bool(rest) or ctx.extra_args)
    if spec.hosts:
        for word in positionals:
            local = file_url_path(word.value or "")
            if local is not None:  # curl file:///x reads x
                ctx.path(Word(word.text, local, local), Access.READ, f"file URL given to {ctx.program}")
            elif host := any_host(word.value or ""):
                ctx.host(host)
    if spec.handler is not None:
        handler = handlers.get(spec.handler)
        if handler is None:
            ctx.errors.append(f"internal: no handler {spec.handler!r}")
        else:
            handler(ctx, spec, parsed, positionals)
    if top is not spec and top.handler is not None and top.handler in handlers:
        handlers[top.handler](ctx, top, parsed, positionals)  # program-wide checks (kubectl)
    # `git stash list`: stash's write is not what the command does in the end
    if ctx.raising:
        ctx.raising[:] = [(i, e) for i, e in ctx.raising if e in ctx.effects]


def _raise_spec(ctx: Ctx, spec: Spec, at: int) -> None:
    """The subcommand word at ``at`` raises what its spec does (and its caches)."""
    raised = set(spec.effects - {Effect.READ})
    raised |= {Effect.WRITE} if spec.caches else set()
    raised |= {Effect.NETWORK} if spec.cache_hosts else set()
    ctx.raising.extend((at, e) for e in sorted(raised) if (at, e) not in ctx.raising)


def _recursive(ctx: Ctx, first: int, named: bool) -> None:
    """Mark the paths just recorded as read recursively; with none named, the cwd is."""
    ctx.paths[first:] = [read_below(p) for p in ctx.paths[first:]]
    if not named:
        ctx.paths.append(PathUse(".", Access.READ, ".", f"{ctx.program} searches the cwd", recursive=True))


def _caches(ctx: Ctx, spec: Spec) -> None:
    """Caches and registries a read-only looking subcommand writes and contacts itself."""
    for cache in spec.caches:
        ctx.add(Effect.WRITE, note=f"{ctx.program} writes its cache {cache}")
        ctx.paths.append(PathUse(cache, Access.WRITE, cache, f"{ctx.program} cache"))
    for host in spec.cache_hosts:
        ctx.add(Effect.NETWORK, note=f"{ctx.program} may contact {host}")
        ctx.host(host)


def _declared(spec: Spec, flag: Flag) -> bool:
    """Whether the option table knows ``flag`` (with a value only where it takes one)."""
    if flag.name == NUMERIC:
        return spec.numeric
    if spec.known is None:
        return False
    if flag.name not in spec.known:
        return False
    return not (flag.inline and flag.name not in spec.takes_value and flag.name not in spec.optional)


def _apply_flags(ctx: Ctx, spec: Spec, parsed: Parsed, offset: int = 1) -> None:
    """Each option's effect; an option missing from the table makes the command unknown."""
    open_args = spec.open_args or spec.handler in OPEN_HANDLERS
    for flag in parsed.flags:
        at = offset + flag.index
        rule = spec.flags.get(flag.name)
        if (
            rule is not None
            and rule.value is Access.WRITE
            and flag.value is not None
            and (P.is_harmless_target(flag.value.value or ""))
        ):
            rule = None  # curl -o /dev/null, sort -o /dev/stdout: nothing is written
        if (
            flag.value is not None
            and flag.value.glob
            and not flag.inline
            and (rule is None or rule.value is None)
        ):  # `strings -s *`: bash expands the "value" into paths, the next ones become files
            ctx.path(flag.value, Access.READ, f"glob as the value of {ctx.program} {flag.name}")
        if not open_args and not _declared(spec, flag):
            shown = flag.text if flag.text in ("", flag.name) else f"{flag.name} (in {flag.text})"
            ctx.raise_at(
                at,
                Effect.UNKNOWN,
                note=f"{ctx.program}: option {shown or flag.name!r} is not in its table (unknown)",
            )
        if rule is None:
            continue
        if rule.effects:
            ctx.raise_at(at, *rule.effects, note=rule.note)
        else:
            ctx.note(rule.note)
        if rule.args is not None and rule.args is not Access.READ:
            ctx.reader = False
        if rule.value is not None and flag.value is not None:
            ctx.path(flag.value, rule.value, f"{ctx.program} {flag.name}", runs=rule.runs)
            if rule.lists and flag.value.value:
                ctx.listed(flag.value.value, f"{ctx.program} {flag.name}")
            if rule.value is not Access.READ:
                ctx.reader = False
        if rule.host:
            _flag_host(ctx, flag, at)


def _flag_host(ctx: Ctx, flag: Flag, at: int) -> None:
    value = flag.value.value if flag.value is not None else None
    host = (any_host(value) or bare_host(value.split("/")[0])) if value else None
    if host:
        ctx.host(host)
    else:
        ctx.raise_at(
            at, Effect.UNKNOWN, note=f"{ctx.program} {flag.name}: destination only known at run time"
        )


def redirect_paths(ctx: Ctx, redirects: tuple[Redirect, ...]) -> None:
    """Every redirection of a command, whatever program, wrapper or handler follows: kept in
    ``ctx.redirected`` (a handler may rebuild ``ctx.paths``, never these)."""
    for r in redirects:
        if r.evaluates:
            ctx.evaluated = ctx.evaluated or f"{r.text!r} evaluates a run-time value"
        target = r.target
        if target is None:
            continue
        if r.op in (">&", "<&") and (target.value or "").rstrip("-").isdigit():
            continue  # 2>&1, >&2, <&0: descriptor duplication
        if r.op == ">&" and target.value == "-":
            continue
        if target.value is not None and P.is_harmless_target(target.value):
            continue
        socket = _dev_socket(target.value or "")
        if socket is not None:  # bash opens a TCP/UDP connection for /dev/tcp/HOST/PORT
            ctx.add(Effect.NETWORK, note=f"redirection {r.op} connects to {socket}")
            ctx.host(socket)
        access = Access.WRITE if r.op in _WRITE_OPS else Access.READ
        if r.op not in _WRITE_OPS and r.op not in _READ_OPS:
            ctx.errors.append(f"unknown redirection operator {r.op!r} in {r.text!r}")
            access = Access.WRITE
        if access is Access.WRITE:
            ctx.add(Effect.WRITE)
            ctx.reader = False
        use = path_use(target, access, f"redirection {r.op}")
        if use is not None:
            ctx.redirected.append(use)


def _dev_socket(path: str) -> str | None:
    """The host of bash's ``/dev/tcp/HOST/PORT`` or ``/dev/udp/HOST/PORT`` redirection."""
    parts = path.split("/")
    if len(parts) >= 4 and parts[0] == "" and parts[1] == "dev" and parts[2] in ("tcp", "udp"):
        return parts[3].strip("[]") or None
    return None


def _argv(ctx: Ctx) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The decoded argv, and the indexes of words only known at run time (or globs)."""
    argv: list[str] = []
    dynamic_words: list[int] = []
    for i, w in enumerate(ctx.words):
        value = w.value
        if value is None:
            argv.append(w.text)
            dynamic_words.append(i)
        else:
            argv.append(value)
            if w.glob:
                dynamic_words.append(i)
    return tuple(argv), tuple(dynamic_words)


def _plain_writer(ctx: Ctx, dynamic: bool, paths: tuple[PathUse, ...]) -> bool:
    """Its spec only writes its paths, and nothing here did more (see SimpleCommand)."""
    return (
        ctx.plain_writer
        and ctx.known
        and not dynamic
        and not ctx.raising  # no option did more (cp -t, --backup, -l)
        and ctx.effects <= _PLAIN_WRITES
        and not ctx.errors
        and ctx.self_change is None
        and ctx.catastrophic is None
        and all(use.path is not None or use.pattern is not None for use in paths)
    )


def finish(ctx: Ctx, spelling: str, dynamic: bool) -> SimpleCommand:
    """Hardline checks common to every command, then the immutable result."""
    names_credentials_dir(ctx)
    paths = (
        (*ctx.redirected, *ctx.carried_paths, *ctx.paths)
        if (ctx.redirected or ctx.carried_paths)
        else tuple(ctx.paths)
    )
    if ctx.evaluated:
        dynamic = True
        ctx.note(ctx.evaluated)
    if ctx.carried - {Effect.READ}:
        # The environment's effects stand whatever a handler made of the arguments:
        # ``NODE_OPTIONS=--require=./x.js node --check f`` runs x.js though --check runs nothing.
        ctx.effects.update(ctx.carried)
        ctx.reader = False
    for use in paths:
        if use.access is Access.DELETE and not ctx.catastrophic and (use.path or use.pattern):
            why = P.root_like(use.path or use.pattern or "")
            if why:  # rsync --delete into ~, find / -delete, rm of a glob reaching /etc
                ctx.catastrophic = f"{ctx.program or 'delete'} of {why}"
                ctx.add(Effect.DESTRUCTIVE, note=f"deletes {why}")
        if use.path is None:
            continue
        p = P.normalise(use.path)
        if use.access is not Access.READ and P.is_block_device(p):
            ctx.catastrophic = ctx.catastrophic or f"writes to block device {p}"
            ctx.add(Effect.DESTRUCTIVE, note=f"writes to block device {p}")
        elif use.access is not Access.READ and p.startswith(("/proc/sys", "/sys/", "/dev/")):
            ctx.add(Effect.SYSTEM, note=f"writes to kernel / device file {p}")
        if P.looks_like_credential(use.path):
            ctx.add(Effect.CREDENTIALS, note=f"touches credential path {use.path}")
    if ctx.catastrophic:
        ctx.add(Effect.DESTRUCTIVE)
    if not ctx.effects:
        ctx.effects.add(Effect.READ if ctx.reader else Effect.UNKNOWN)
    pure = (
        ctx.reader
        and ctx.known
        and not dynamic
        and ctx.effects <= {Effect.READ}
        and not ctx.errors
        and ctx.self_change is None
        # An unknown path is not "pure"; a literal glob is expanded by the policy.
        and all(use.path is not None or use.pattern is not None for use in paths)
    )
    argv, dynamic_words = _argv(ctx)
    return new_command(
        ctx.raw.text,
        argv,
        None if dynamic else ctx.program,
        spelling,
        ctx.known and not dynamic,
        dynamic,
        frozenset(ctx.effects),
        paths,
        tuple(ctx.hosts),
        ctx.install_manager,
        tuple(ctx.install_packages),
        tuple(ctx.wrappers),
        pure,
        ctx.catastrophic,
        tuple(ctx.notes),
        dynamic_words,
        ctx.self_change,
        ctx.scope,
        tuple(ctx.raising),
        ctx.base,
        ctx.discloses,
        _plain_writer(ctx, dynamic, paths),
        ctx.imports_cwd,
    )
