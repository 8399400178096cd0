"""Apply a knowledge-base ``Spec`` to an argv, and turn the finished state into a
``SimpleCommand``. Program-specific logic lives in the handler modules."""

from __future__ import annotations

from collections.abc import Callable

from bastion.policy.decision import Effect
from bastion.shell import paths as P
from bastion.shell.ctx import Ctx, path_use
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.hosts import any_host
from bastion.shell.model import Access, PathUse, SimpleCommand
from bastion.shell.programs import Spec
from bastion.shell.walk import Redirect
from bastion.shell.words import Word

Handler = Callable[[Ctx, Spec, Parsed, list[Word]], None]
_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_READ_OPS = frozenset({"<", "<&"})


def resolve_spec(ctx: Ctx, spec: Spec, args: list[Word], label: str) -> tuple[Spec, list[Word]]:
    """Follow subcommands (``git remote add``, ``docker volume rm``) down to the spec that
    applies, returning it with the words after the subcommand."""
    while spec.subcommands is not None:
        parsed, stop = parse_args(args, spec.takes_value, spec.aliases, stop_at_positional=True)
        _apply_flags(ctx, spec, parsed)
        if stop >= len(args):
            return spec, []  # bare program: the spec's own defaults
        sub_word = args[stop]
        sub = sub_word.value
        nxt = spec.subcommands.get(sub) if sub is not None else None
        if nxt is None:
            if spec.other_sub is None:
                ctx.add(Effect.UNKNOWN, note=f"{label}: unknown subcommand {sub_word.text!r}")
                return Spec(), args[stop + 1 :]
            nxt = spec.other_sub
        label = f"{label} {sub_word.text}"
        spec, args = nxt, args[stop + 1 :]
    return spec, args


def apply_spec(ctx: Ctx, spec: Spec, args: list[Word], handlers: dict[str, Handler]) -> None:
    ctx.reader = True  # ctx.add() of any non-read effect clears it
    top = spec
    spec, args = resolve_spec(ctx, spec, args, ctx.program)
    ctx.reader = ctx.reader and spec.reader
    ctx.effects.update(spec.effects)
    if spec.note:
        ctx.note(spec.note)
    parsed, _ = parse_args(args, spec.takes_value, spec.aliases)
    _apply_flags(ctx, spec, parsed)
    positionals = list(parsed.positionals)
    access = spec.args
    for flag in parsed.flags:
        rule = spec.flags.get(flag.name)
        if rule is not None and rule.args is not None:
            access = rule.args
    rest = positionals
    if spec.lead and not parsed.has(*spec.lead_flags):
        rest = positionals[spec.lead :]
    if spec.dest_last and not parsed.has("-t") and len(rest) >= 2:
        ctx.path(rest[-1], Access.WRITE, f"destination of {ctx.program}")
        rest = rest[:-1]
    if access is not None:
        for word in rest:
            ctx.path(word, access, f"argument of {ctx.program}")
        if ctx.extra_args:
            ctx.paths.append(PathUse(None, access, "", f"{ctx.program} argument from xargs"))
    if spec.hosts:
        for word in positionals:
            host = any_host(word.value or "")
            if host:
                ctx.host(host)
    if spec.handler is not None:
        handler = handlers.get(spec.handler)
        if handler is None:
            ctx.errors.append(f"internal: no handler {spec.handler!r}")
        else:
            handler(ctx, spec, parsed, positionals)
    if top is not spec and top.handler is not None and top.handler in handlers:
        handlers[top.handler](ctx, top, parsed, positionals)  # program-wide checks (kubectl)


def _apply_flags(ctx: Ctx, spec: Spec, parsed: Parsed) -> None:
    for flag in parsed.flags:
        rule = spec.flags.get(flag.name)
        if rule is None:
            continue
        if rule.effects:
            ctx.add(*rule.effects, note=rule.note)
        else:
            ctx.note(rule.note)
        if rule.args is not None and rule.args is not Access.READ:
            ctx.reader = False
        if rule.value is not None and flag.value is not None:
            ctx.path(flag.value, rule.value, f"{ctx.program} {flag.name}")
            if rule.value is not Access.READ:
                ctx.reader = False


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


def finish(ctx: Ctx, spelling: str, dynamic: bool) -> SimpleCommand:
    """Hardline checks common to every command, then the immutable result."""
    paths = (*ctx.redirected, *ctx.carried_paths, *ctx.paths) if (
        ctx.redirected or ctx.carried_paths) else tuple(ctx.paths)
    if ctx.evaluated:
        dynamic = True
        ctx.note(ctx.evaluated)
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
    return SimpleCommand(
        text=ctx.raw.text,
        argv=tuple((w.value if w.value is not None else w.text) for w in ctx.words),
        program=None if dynamic else ctx.program,
        spelling=spelling,
        known=ctx.known and not dynamic,
        dynamic=dynamic,
        effects=frozenset(ctx.effects),
        paths=paths,
        hosts=tuple(ctx.hosts),
        install_manager=ctx.install_manager,
        install_packages=tuple(ctx.install_packages),
        wrappers=tuple(ctx.wrappers),
        pure_reader=pure,
        catastrophic=ctx.catastrophic,
        notes=tuple(ctx.notes),
        dynamic_words=tuple(i for i, w in enumerate(ctx.words) if not w.literal or w.glob),
        self_change=ctx.self_change,
        scope=ctx.scope,
    )
