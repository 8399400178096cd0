"""Deciding a ``shell`` call: every simple command of the parse is a subject of its own.

A shell call is allowed only when every simple command is a recognised pure reader (or
matches an allow entry or rule) and every path and host it touches passes the path and
network policy. Anything that could not be parsed or decided asks, and is never allowed.
"""

from __future__ import annotations

from bastion.call.model import Family, ToolCall
from bastion.policy.decision import Decision, Effect, Reason
from bastion.policy.engine import WRITE_EFFECTS, Gate, install_subject
from bastion.policy.network import decide_target
from bastion.policy.paths import PathError, check_path, normalise
from bastion.policy.verdict import Assembly, Subject
from bastion.shell.model import Access, ShellAnalysis, SimpleCommand
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
    for cmd in analysis.commands:
        _decide_command(gate, call, out, cmd)


def _decide_command(gate: Gate, call: ToolCall, out: Assembly, cmd: SimpleCommand) -> None:
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
    touched_ok = _paths(gate, out, subject, cmd, call.cwd) & _hosts(gate, subject, cmd)
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


def _credential_arguments(gate: Gate, subject: Subject, cmd: SimpleCommand, cwd: str) -> None:
    """A safety net for programs whose arguments the knowledge base does not model as paths
    (``pytest ~/.ssh/id_rsa``, ``tool --key=~/.aws/credentials``): a path-like word naming a
    credential location asks a person."""
    known = {p.raw for p in cmd.paths} | {p.path for p in cmd.paths if p.path}
    credentials = gate.policy.hardline.credentials
    for word in cmd.argv[1:]:
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


def _paths(gate: Gate, out: Assembly, subject: Subject, cmd: SimpleCommand, cwd: str) -> bool:
    """Check every path the command touches; True when all are allowed for their access."""
    policy = gate.policy
    ok = True
    for use in cmd.paths:
        write = use.access is not Access.READ
        if use.path is None:
            ok = False
            subject.notes.append(f"{use.raw} ({use.why or use.access.value}) is only known at run time")
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
        verdict = check_path(policy, use.path, write=write, cwd=cwd, fs=gate.fs)
        subject.effects |= verdict.effects
        if verdict.decision in (Decision.DENY, Decision.ASK):
            subject.hard.extend(verdict.reasons)
        if write:
            gate.ceiling_write_check(out, verdict)
        if verdict.decision is Decision.DENY or (
            verdict.decision is not Decision.ALLOW and policy.mode != "full-access"
        ):
            ok = False
            why = use.why or use.access.value
            subject.notes.extend(f"{r.message} ({why})" for r in verdict.reasons)
    return ok


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
    return ok
