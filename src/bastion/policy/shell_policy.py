"""Deciding a ``shell`` call: every simple command of the parse is a subject of its own.

A shell call is allowed only when every simple command is a recognised pure reader (or
matches an allow entry or rule) and every path and host it touches passes the path and
network policy. Anything that could not be parsed or decided asks, and is never allowed.
"""

from __future__ import annotations

from bastion.call.model import Family, ToolCall
from bastion.policy.decision import Decision, Effect, Reason
from bastion.policy.engine import WRITE_EFFECTS, Gate, install_subject
from bastion.policy.git_hooks import hooks_write_reason
from bastion.policy.network import decide_target
from bastion.policy.paths import PathError, check_path, normalise
from bastion.policy.shell_git import check_git, command_dirs
from bastion.policy.shell_reach import (
    Unknown,
    check_recursion,
    concrete_paths,
    credential_effect,
    destructive_reason,
    destructive_target,
    wildcard_parent,
)
from bastion.policy.treewalk import Reach
from bastion.policy.verdict import Assembly, Subject
from bastion.shell.model import Access, PathUse, ShellAnalysis, SimpleCommand
from bastion.shell.programs import lookup

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


def decide_shell(gate: Gate, call: ToolCall, out: Assembly) -> None:
    command = call.require_str("command")
    if len(command.encode("utf-8", "surrogatepass")) > MAX_COMMAND_BYTES:
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
    decide_analysis(gate, call, out, gate.analyze_shell(command))


def decide_analysis(gate: Gate, call: ToolCall, out: Assembly, analysis: ShellAnalysis) -> None:
    policy = gate.policy
    if not analysis.decidable:
        subject = out.add(Subject(label="shell (unparsed part)", effects={Effect.UNKNOWN}))
        message = "cannot be decided safely: " + "; ".join(analysis.errors)[:500]
        if policy.mode == "read-only":
            subject.hard.append(gate.mode_block("a command that cannot be parsed"))
        else:
            subject.hard.append(
                Reason(Decision.ASK, "shell.undecidable", "built-in", analysis.source[:200], message)
            )
    # The classifier already joins relative paths after ``cd DIR`` (and gives None after a
    # cd to a run-time value), so every path is relative to the call's own cwd here.
    # Globs, recursion and git are looked at through the file system, once per call.
    reach = Reach(gate.tree, gate.fs.resolve)
    dirs = command_dirs(analysis.commands, call.cwd, policy.home, cdpath="CDPATH" in analysis.source)
    for cmd, cwds in zip(analysis.commands, dirs, strict=True):
        _decide_command(gate, call, out, cmd, reach, cwds)


def _decide_command(
    gate: Gate,
    call: ToolCall,
    out: Assembly,
    cmd: SimpleCommand,
    reach: Reach,
    cwds: tuple[str, ...] | None,
) -> None:
    policy = gate.policy
    words = " ".join(cmd.argv) if cmd.argv else cmd.text
    subject = out.add(Subject(label=f"$ {words}"[:300], effects=set(cmd.effects)))
    subject.notes.extend(cmd.notes)
    if cmd.wrappers:
        subject.notes.append(f"looked through: {', '.join(cmd.wrappers)}")
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
    for pattern in policy.command_deny:
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
    touched_ok = _paths(gate, out, subject, cmd, call.cwd, reach) & _hosts(gate, subject, cmd)
    touched_ok &= _reality(gate, subject, cmd, call.cwd, reach, cwds)
    _credential_arguments(gate, subject, cmd, call.cwd)

    # (3) allow entries, then rules: the last matching rule overrides.
    for pattern in policy.command_allow:
        if pattern.command.matches_allow(cmd):
            subject.override = Reason(
                Decision.ALLOW,
                "commands.allow",
                pattern.source,
                pattern.text,
                f"matches allow entry '{pattern.text}'",
            )
        elif (gap := pattern.command.gap(cmd)) is not None:
            subject.notes.append(f"allow entry {gap}")  # which word is not covered, and how
    rule = gate.last_rule(
        Family.SHELL, lambda r: r.matcher.matches_command(cmd, allow=r.action in ("allow", "classify"))
    )
    if rule is not None:
        verdict = None
        if rule.action == "classify":
            verdict = Decision.ALLOW if cmd.pure_reader else Decision.ASK
        subject.override = gate.rule_reason(rule, words[:200], decision=verdict)
    if subject.override is not None and subject.override.decision is Decision.ALLOW and not touched_ok:
        subject.notes.append(
            f"{subject.override.rule} matched, but a path or host it touches is not allowed: not allowed"
        )
        subject.override = None

    if Effect.INSTALL in cmd.effects and cmd.install_manager:
        install = install_subject(
            gate,
            out,
            call,
            cmd.install_manager,
            cmd.install_packages,
            label=f"$ {cmd.install_manager} install",
        )
        if subject.override is not None:
            install.override = subject.override
    # (4) the mode's default.
    reader = _reader_or_printer(cmd) and touched_ok
    if policy.mode == "read-only":
        if not cmd.pure_reader:
            out.caps.append(gate.mode_block(f"'{words[:120]}' (not a pure read)"))
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
    elif policy.mode == "full-access":
        if Effect.DELETE in cmd.effects:
            subject.mode = Reason(
                Decision.ASK,
                "mode.full-access",
                policy.mode_source,
                words[:200],
                "deleting still asks in full-access mode",
            )
        else:
            subject.mode = Reason(
                Decision.ALLOW,
                "mode.full-access",
                policy.mode_source,
                words[:200],
                "full-access allows what is not denied",
            )
    if cmd.effects & WRITE_EFFECTS and policy.mode == "read-only":
        out.caps.append(gate.mode_block(f"'{words[:120]}' writes"))
    if not _reader_or_printer(cmd):
        subject.unmet.append(_not_a_reader(cmd, words))


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


_EXCLUDING = ("--exclude=", "--exclude-dir=")


def _credential_arguments(gate: Gate, subject: Subject, cmd: SimpleCommand, cwd: str) -> None:
    """A safety net for programs whose arguments the knowledge base does not model as paths
    (``pytest ~/.ssh/id_rsa``, ``tool --key=~/.aws/credentials``): a path-like word naming a
    credential location asks a person."""
    known = {p.raw for p in cmd.paths} | {p.path for p in cmd.paths if p.path}
    credentials = gate.policy.hardline.credentials
    for word in cmd.argv[1:]:
        if word.startswith(_EXCLUDING):
            continue  # a pattern of what to leave out (grep/tar/rsync --exclude=.env)
        value = word.partition("=")[2] if word.startswith("-") and "=" in word else word
        if value in known or not (value.startswith(("/", "~", ".")) or "/" in value):
            continue
        try:
            path = normalise(value, cwd=cwd, home=gate.policy.home)
        except PathError:
            continue
        glob = credentials.first_match(path)
        if glob is not None:
            subject.effects.add(Effect.CREDENTIALS)
            subject.hard.append(
                Reason(
                    Decision.ASK,
                    "hardline.credentials",
                    "built-in",
                    f"{path} ~ {glob.pattern}",
                    f"argument {value!r} names a credential location: a person must confirm",
                )
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


def _paths(gate: Gate, out: Assembly, subject: Subject, cmd: SimpleCommand, cwd: str, reach: Reach) -> bool:
    """Check every path the command touches (each glob as the words it expands to); True
    when all are allowed for their access."""
    policy = gate.policy
    ok = True
    for use in cmd.paths:
        if use.startup and use.path is not None:
            ok = _startup_file(gate, subject, use.path, cwd) and ok
            continue
        write = use.access is not Access.READ
        targets = concrete_paths(reach, use, cwd=cwd, home=policy.home)
        if isinstance(targets, Unknown):
            ok = False
            subject.notes.append(targets.note)
            if targets.ask is not None:
                subject.hard.append(targets.ask)
            else:  # why nothing allowed it, should nothing else decide (the leading reason)
                subject.unmet.append(Reason(Decision.ASK, "shell.dynamic-path", "built-in", use.raw,
                                            targets.note))
            if write and policy.ceiling is not None and policy.ceiling.filesystem != "unrestricted":
                out.caps.append(
                    Reason(
                        Decision.DENY,
                        "ceiling.filesystem",
                        policy.ceiling.source,
                        use.raw,
                        "the ceiling limits writes and this target is unknown",
                    )
                )
            continue
        if use.pattern is not None:
            subject.notes.append(f"{use.raw} expands to {' '.join(targets)[:300]}")
        # The classifier's lexical catastrophic verdict already denies; judge the rest here.
        judge = use.access is Access.DELETE and cmd.catastrophic is None
        parent = wildcard_parent(use) if judge else None
        if parent is not None:
            emptied = check_path(policy, parent, write=True, cwd=cwd, fs=gate.fs)
            why = destructive_target(policy, emptied)
            if why is not None:
                subject.effects.add(Effect.DESTRUCTIVE)
                subject.hard.append(destructive_reason(use.raw, f"everything in {why}"))
        for path in targets:
            ok &= _path(gate, out, subject, use, path, cwd, reach, judge=judge)
    return ok


def _startup_file(gate: Gate, subject: Subject, path: str, cwd: str) -> bool:
    """A login shell runs its startup files: as safe as the inner command only while an agent
    cannot write them. Protected ones (a direct write would ask or be denied: shell rc files,
    /etc) are declared, not asked about; one the agent could write is code it controls."""
    verdict = check_path(gate.policy, path, write=True, cwd=cwd, fs=gate.fs)
    if verdict.decision is Decision.ALLOW:
        subject.effects.add(Effect.CODE)
        subject.hard.append(Reason(Decision.ASK, "shell.startup-writable", "built-in", path,
                                   f"the shell first runs {path}, which an agent may write: "
                                   "it is code the agent controls"))  # fmt: skip
        return False
    subject.notes.append(f"runs startup file {path} (protected from agent writes)")
    return True


def _path(
    gate: Gate,
    out: Assembly,
    subject: Subject,
    use: PathUse,
    path: str,
    cwd: str,
    reach: Reach,
    *,
    judge: bool,
) -> bool:
    policy = gate.policy
    write = use.access is not Access.READ
    verdict = check_path(policy, path, write=write, cwd=cwd, fs=gate.fs)
    subject.effects |= verdict.effects
    if verdict.decision in (Decision.DENY, Decision.ASK):
        subject.hard.extend(verdict.reasons)
    hooks = hooks_write_reason(policy, reach, verdict) if write else None
    if hooks is not None:
        subject.hard.append(hooks)
        subject.effects.add(Effect.SELF)
    if write:
        gate.ceiling_write_check(out, verdict)
    if judge:
        why = destructive_target(policy, verdict)
        if why is not None:
            subject.effects.add(Effect.DESTRUCTIVE)
            subject.hard.append(destructive_reason(path, why))
    if verdict.decision is Decision.DENY or (
        verdict.decision is not Decision.ALLOW and policy.mode != "full-access"
    ):
        why = use.why or use.access.value
        subject.notes.extend(f"{r.message} ({why})" for r in verdict.reasons)
        if verdict.decision is None:
            subject.unmet.extend(verdict.reasons)
        return False
    return hooks is None


def _reality(
    gate: Gate, subject: Subject, cmd: SimpleCommand, cwd: str, reach: Reach, cwds: tuple[str, ...] | None
) -> bool:
    """What a command reaches beyond its arguments: a recursive command's trees (a credential
    read through ``tar ch`` is one whatever the mode), and for a reader git's repository
    configuration and committed files. True when nothing asks."""
    policy = gate.policy
    starts: list[str] = []
    marked = any(u.recursive for u in cmd.paths)  # the knowledge base names the trees itself
    for use in cmd.paths:
        if use.access is Access.READ and (use.recursive or not marked):
            found = concrete_paths(reach, use, cwd=cwd, home=policy.home)
            starts.extend(found if not isinstance(found, Unknown) else ())
    reached = check_recursion(policy, gate.fs, reach, cmd, starts, cwd=cwd)
    # Every git command reads its repository's configuration, readers or not: in full-access a
    # writing or networked git runs too, and a program the config names is code in any mode.
    git = check_git(policy, gate.fs, reach, cmd, cwds)
    reasons = list(dict.fromkeys([*reached.reasons, *git]))  # git grep: its walk and its index
    subject.notes.extend(reached.notes)
    subject.hard.extend(reasons)
    subject.effects |= credential_effect(tuple(reasons))
    if any(r.rule == "shell.git-config" for r in reasons):
        subject.effects.add(Effect.CODE)
    return not reasons


def _hosts(gate: Gate, subject: Subject, cmd: SimpleCommand) -> bool:
    policy = gate.policy
    ok = True
    for host in cmd.hosts:
        decision, reasons, _ = decide_target(host, policy.network, gate.resolver)
        if decision is Decision.DENY:
            subject.hard.extend(reasons)
            ok = False
        elif decision is None and policy.mode != "full-access":
            ok = False
            subject.notes.append(f"{host} is not in allow_hosts")
            subject.unmet.extend(reasons)
    return ok
