"""Deciding a ``shell`` call: every simple command of the parse is a subject of its own.

A shell call is allowed only when every simple command is a recognised pure reader (or
matches an allow entry or rule) and every path and host it touches passes the path and
network policy. Anything that could not be parsed or decided asks, and is never allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from operator import attrgetter

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.policy.contained_code import contained_allow
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_writes import everyday_git_write
from bastion.policy.kinds import Mode, RuleAction
from bastion.policy.metadata_words import metadata_word
from bastion.policy.named_arguments import credential_arguments
from bastion.policy.paths import CallFs
from bastion.policy.plain_deletes import DELETERS, plain_delete
from bastion.policy.script_files import script_denials
from bastion.policy.secret_sends import secret_sends
from bastion.policy.shell_git import command_dirs
from bastion.policy.shell_touch import landed_paths, touched_hosts, touched_paths, touched_reach
from bastion.policy.stages import (
    WRITE_EFFECTS,
    Context,
    full_access_allow,
    install_subject,
    last_rule,
    mode_block,
    rule_reason,
)
from bastion.policy.treewalk import Reach
from bastion.policy.verdict import Assembly, Subject
from bastion.shell.feeds import fed_stdin
from bastion.shell.model import Access, ShellAnalysis, SimpleCommand
from bastion.shell.programs.registry import lookup

#: Commands longer than this are denied outright (bytes of UTF-8).
MAX_COMMAND_BYTES = 64 * 1024

_FLOOR_CLASSES = {
    Effect.SYSTEM: "system control changes the machine",
    Effect.INFRASTRUCTURE: "infrastructure changes reach beyond this machine",
    Effect.DESTRUCTIVE: "a destructive command",
    Effect.PRIVILEGE: "runs with raised privileges",
    Effect.CREDENTIALS: "touches credentials",
}
_FLOOR_SET = frozenset(_FLOOR_CLASSES)


def decide_shell(ctx: Context, call: ToolCall, out: Assembly) -> None:
    command = call.require_str("command")
    stdin = call.args.get("stdin")
    if isinstance(stdin, str) and stdin:
        command = fed_stdin(command, stdin)  # the exec tool's stdin: what reads it is decided on it
    # At most 4 bytes of UTF-8 a character: only a long string needs encoding to be measured.
    if (
        len(command) * 4 > MAX_COMMAND_BYTES
        and len(command.encode("utf-8", "surrogatepass")) > MAX_COMMAND_BYTES
    ):
        subject = out.add(Subject(label="shell (too long)", effects={Effect.UNKNOWN}))
        subject.hard.append(
            Reason(
                Decision.DENY,
                "shell.too-long",
                "built-in",
                f"{len(command)} chars",
                f"commands over {MAX_COMMAND_BYTES // 1024} KiB are denied",
            )
        )
        return
    decide_analysis(ctx, call, out, ctx.analyze_shell(command))


def decide_analysis(
    ctx: Context, call: ToolCall, out: Assembly, analysis: ShellAnalysis, *, reuse: bool = True
) -> None:
    """Decide every simple command of ``analysis``; ``reuse``: a command equal to an earlier
    one of this call, in the same folders, takes that one's outcome (see ``_Decided``)."""
    policy = ctx.policy
    if not analysis.decidable:
        subject = out.add(Subject(label="shell (unparsed part)", effects={Effect.UNKNOWN}))
        message = "cannot be decided safely: " + "; ".join(analysis.errors)[:500]
        if policy.mode is Mode.READ_ONLY:
            subject.hard.append(mode_block(policy, "a command that cannot be parsed"))
        else:
            subject.hard.append(
                Reason(Decision.ASK, "shell.undecidable", "built-in", analysis.source[:200], message)
            )
    # The classifier already joins relative paths after ``cd DIR`` (and gives None after a
    # cd to a run-time value), so every path is relative to the call's own cwd here.
    # Globs, recursion and git are looked at through the file system, once per call: one
    # memo of resolved paths and path verdicts for this call only (see ``CallFs``; the gate
    # passes one in, a caller that did not gets one here).
    fs = ctx.fs
    if not (isinstance(fs, CallFs) and fs.policy is policy):
        fs = CallFs(ctx.fs, policy, ctx.tree)
        ctx = replace(ctx, fs=fs)
    reach = Reach(ctx.tree, fs.resolve)
    dirs = command_dirs(analysis.commands, call.cwd, policy.home, cdpath="CDPATH" in analysis.source)
    if not reuse or len(analysis.commands) == 1:  # the common case: nothing to decide twice
        for cmd, cwds in zip(analysis.commands, dirs, strict=True):
            _decide_command(ctx, call, out, cmd, reach, cwds)
        return
    done: dict[tuple[object, ...], _Decided] = {}
    for cmd, cwds in zip(analysis.commands, dirs, strict=True):
        key = (_decided_by(cmd), cwds)
        earlier = done.get(key)
        if earlier is not None:
            out.subjects.extend(earlier.subjects)
            out.caps.extend(earlier.caps)
            continue
        subjects, caps, volatile, failed = len(out.subjects), len(out.caps), reach.volatile, fs.failed
        _decide_command(ctx, call, out, cmd, reach, cwds)
        if (
            reach.volatile == volatile
            and fs.failed == failed
            and reach.spent <= reach.budget
            and not cmd.hosts
        ):
            done[key] = _Decided(out.subjects[subjects:], out.caps[caps:])


#: What the decision of a simple command reads of it: every field but ``scope`` (which
#: child shell it runs in; the classifier has already applied it to the paths, and nothing
#: in policy/ reads it: tests/policy/test_repeated_commands.py checks both).
NOT_DECIDING = frozenset({"scope"})
_decided_by = attrgetter(*(f.name for f in fields(SimpleCommand) if f.name not in NOT_DECIDING))


@dataclass(frozen=True, slots=True)
class _Decided:
    """What deciding a command added to the assembly. An equal command (``_decided_by``) in
    the same folders of the same call is decided by the same inputs: every file-system answer
    it got is one the call's memo keeps (``CallFs``, ``Reach``), so asking again gives the
    same answers, subjects and caps. Kept only when that holds: no uncached read or spend, no
    failed resolution, no exhausted budget, no host (a resolver may answer differently)."""

    subjects: list[Subject]
    caps: list[Reason]


def _decide_command(
    ctx: Context,
    call: ToolCall,
    out: Assembly,
    cmd: SimpleCommand,
    reach: Reach,
    cwds: tuple[str, ...] | None,
) -> None:
    words = " ".join(cmd.argv) if cmd.argv else cmd.text
    subject = out.add(
        Subject(label=f"$ {words}"[:300], effects=set(cmd.effects), traced=out.trace is not None)
    )
    subject.notes.extend(cmd.notes)
    if cmd.wrappers:
        subject.notes.append(f"looked through: {', '.join(cmd.wrappers)}")
    _hard(ctx, subject, cmd, words)
    script_denials(ctx, call, subject, cmd, reach, decide_analysis)  # sh F, sed -f F
    touched_ok = touched_paths(ctx, out, subject, cmd, call.cwd, reach) & touched_hosts(ctx, subject, cmd)
    touched_ok &= touched_reach(ctx, subject, cmd, call.cwd, reach, cwds)
    writer = cmd.plain_writer and landed_paths(ctx, out, subject, cmd, call.cwd, reach)
    credential_arguments(ctx, subject, cmd, call.cwd)
    secret_sends(ctx, subject, cmd)
    _overrides(ctx, subject, cmd, words, touched_ok=touched_ok)
    if Effect.INSTALL in cmd.effects and cmd.install_manager:
        install = install_subject(
            ctx,
            out,
            call,
            cmd.install_manager,
            cmd.install_packages,
            label=f"$ {cmd.install_manager} install",
        )
        if subject.override is not None:
            install.override = subject.override
    reader = _reader_or_printer(cmd)
    writes = None
    if writer and touched_ok and not reader:
        writes = _PLAIN_WRITE
    elif cmd.program == "git" and touched_ok and not reader and ctx.policy.mode is Mode.WORKSPACE:
        why_not = everyday_git_write(ctx.policy, ctx.fs, reach, cmd, cwds)
        writes = _GIT_WRITE if why_not is None else None
        subject.notes.extend(why_not or ())
    elif cmd.program in DELETERS and touched_ok and not reader and ctx.policy.mode is Mode.WORKSPACE:
        writes = plain_delete(ctx.policy, reach, cmd, call.cwd)
    writer = writes is not None
    contained = None
    if ctx.contained and touched_ok and not reader and not writer:
        contained = contained_allow(frozenset(subject.effects), cmd.hosts, words)
    _mode_default(
        ctx, out, subject, cmd, words, reader=reader and touched_ok, writes=writes, contained=contained
    )
    if not reader and not ((writer or contained) and subject.mode is not None):
        subject.unmet.append(_not_a_reader(cmd, words))


def _hard(ctx: Context, subject: Subject, cmd: SimpleCommand, words: str) -> None:
    """(1) the hardline built-ins and (2) the deny entries: floors nothing lowers."""
    if cmd.catastrophic:
        subject.effects.add(Effect.DESTRUCTIVE)
        subject.hard.append(
            Reason(
                Decision.DENY,
                "hardline.destructive",
                "built-in",
                words[:200],
                f"catastrophic: {cmd.catastrophic}",
            )
        )
    if cmd.discloses:
        subject.effects.add(Effect.CREDENTIALS)
        subject.hard.append(
            Reason(
                Decision.DENY,
                "hardline.credentials",
                "built-in",
                words[:200],
                f"prints a secret: {cmd.discloses} (reading a credential: never by an agent)",
            )
        )
    if not cmd.pure_reader and (endpoint := metadata_word(cmd.argv)) is not None:
        subject.effects.add(Effect.NETWORK)
        subject.hard.append(
            Reason(
                Decision.DENY,
                "hardline.metadata",
                "built-in",
                endpoint,
                f"names the cloud metadata endpoint {endpoint} in its arguments: never reached by an agent",
            )
        )
    if cmd.self_change:
        subject.hard.append(
            Reason(
                Decision.DENY,
                "hardline.self",
                "built-in",
                words[:200],
                f"Bastion's own state: {cmd.self_change}",
            )
        )
    for pattern in ctx.policy.command_deny:
        if pattern.command.matches_deny(cmd):
            subject.hard.append(
                Reason(
                    Decision.DENY,
                    "commands.deny",
                    pattern.source,
                    pattern.text,
                    f"'{words[:120]}' matches deny entry '{pattern.text}'",
                )
            )
    for effect in cmd.effects & _FLOOR_SET:
        why = _FLOOR_CLASSES[effect]
        subject.hard.append(
            Reason(
                Decision.ASK,
                f"hardline.{effect.value}",
                "built-in",
                words[:200],
                f"{why}: a person must confirm (never a standing grant)",
            )
        )
    if cmd.dynamic:
        subject.hard.append(
            Reason(
                Decision.ASK,
                "shell.dynamic",
                "built-in",
                cmd.spelling or cmd.text,
                "what runs is only known at run time",
            )
        )


def _overrides(ctx: Context, subject: Subject, cmd: SimpleCommand, words: str, *, touched_ok: bool) -> None:
    """(3) allow entries, then rules: the last matching rule overrides."""
    for pattern in ctx.policy.command_allow:
        if pattern.command.matches_allow(cmd):
            subject.override = Reason(
                Decision.ALLOW,
                "commands.allow",
                pattern.source,
                pattern.text,
                f"matches allow entry '{pattern.text}'",
            )
        elif subject.traced and (gap := pattern.command.gap(cmd)) is not None:
            subject.notes.append(f"allow entry {gap}")  # which word is not covered, and how
    rule = last_rule(ctx, Family.SHELL, lambda r: r.matcher.matches_command(cmd, allow=r.action.loosens))
    if rule is not None:
        verdict = None
        if rule.action is RuleAction.CLASSIFY:
            verdict = Decision.ALLOW if cmd.pure_reader else Decision.ASK
        subject.override = rule_reason(rule, words[:200], decision=verdict)
    if subject.override is not None and subject.override.decision is Decision.ALLOW and not touched_ok:
        subject.notes.append(
            f"{subject.override.rule} matched, but a path or host it touches is not allowed: not allowed"
        )
        subject.override = None


_PLAIN_WRITE = (
    "only writes files whose every path is known and an allowed workspace write, as the write tool's would be"
)
_GIT_WRITE = (
    "a git write confined to a repository inside the workspace, which runs nothing for it "
    "(no hook, filter or signing program an agent could have written) and opens no editor"
)


def _mode_default(
    ctx: Context,
    out: Assembly,
    subject: Subject,
    cmd: SimpleCommand,
    words: str,
    *,
    reader: bool,
    writes: str | None = None,
    contained: Reason | None = None,
) -> None:
    """(4) the mode's default, and the read-only mode's caps. ``writes``: why a command that
    writes is the workspace mode's to allow (a plain writer whose every write, named or
    landed, passed the write path policy; an everyday git write), or None. ``contained``:
    the workspace mode's ALLOW of workspace code that will run contained
    (``bastion.policy.contained_code``), or None."""
    policy = ctx.policy
    if policy.mode is Mode.READ_ONLY:
        if not cmd.pure_reader:
            out.caps.append(mode_block(policy, f"'{words[:120]}' (not a pure read)"))
        elif reader:
            subject.mode = Reason(
                Decision.ALLOW, "mode.read-only", policy.mode_source, words[:200], "a recognised pure reader"
            )
    elif reader:
        subject.mode = Reason(
            Decision.ALLOW,
            f"mode.{policy.mode}",
            policy.mode_source,
            words[:200],
            "a recognised pure reader touching only allowed paths",
        )
    elif writes is not None and policy.mode is Mode.WORKSPACE:
        subject.mode = Reason(Decision.ALLOW, f"mode.{policy.mode}", policy.mode_source, words[:200], writes)
    elif contained is not None and policy.mode is Mode.WORKSPACE:
        subject.mode = contained
    elif policy.mode is Mode.FULL_ACCESS:
        if Effect.DELETE in cmd.effects:
            subject.mode = Reason(
                Decision.ASK,
                "mode.full-access",
                policy.mode_source,
                words[:200],
                "deleting still asks in full-access mode",
            )
        else:
            subject.mode = full_access_allow(policy, words[:200], "full-access allows what is not denied")
    if cmd.effects & WRITE_EFFECTS and policy.mode is Mode.READ_ONLY:
        out.caps.append(mode_block(policy, f"'{words[:120]}' writes"))


def _not_a_reader(cmd: SimpleCommand, words: str) -> Reason:
    """Why the mode did not allow it: named by what the command does."""
    does = ", ".join(sorted(e.value for e in cmd.effects)) or "nothing known"
    kind = "not a recognised reader" if cmd.known else "an unknown command"
    return Reason(
        Decision.ASK,
        "shell.not-a-reader",
        "built-in",
        words[:200],
        f"'{words[:120]}' is {kind} (effects: {does}): no rule allows it",
    )


def _reader_or_printer(cmd: SimpleCommand) -> bool:
    """A pure reader, or one whose only writes are its redirections (``echo x > f``): those
    targets still go through the write path policy."""
    if cmd.pure_reader:
        return True
    return (
        cmd.known
        and not cmd.dynamic
        and cmd.effects <= {Effect.READ, Effect.WRITE}
        and all(p.access is Access.READ or p.why.startswith("redirection") for p in cmd.paths)
        and _reader_program(cmd.program)
    )


def _reader_program(program: str | None) -> bool:
    spec = lookup(program) if program else None
    return spec is not None and spec.reader and not spec.subcommands
