"""Observed effects against what the decision declared.

An allowed call declares its effects (``Evaluation.effects``) and the programs it runs (the
analysis's simple commands and the wrappers looked through). A pure reader declares: reads
inside the workspace, nothing else. WRITE or DELETE declare writes or deletes inside the
workspace (never its protected files). Everything observed beyond that is a violation;
a few harmless side effects are reported under their own kind and do not count.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum

from bastion.call.effects import Effect
from bastion.policy.decision import Evaluation
from bastion.shell.model import ShellAnalysis
from tests.differential.oracle import tables
from tests.differential.oracle.trace import Event, Op, events


class Kind(StrEnum):
    # violations
    READ_OUTSIDE = "read outside the workspace"
    CREDENTIAL_READ = "credential read"
    WRITE_UNDECLARED = "write not declared"
    WRITE_OUTSIDE = "write outside the workspace"
    WRITE_PROTECTED = "write to a protected file"
    DELETE_UNDECLARED = "delete not declared"
    DELETE_OUTSIDE = "delete outside the workspace"
    EXEC_UNDECLARED = "exec of a program not named by the decision"
    EXEC_UNTRUSTED = "exec of a file outside the system directories"
    NETWORK = "network not declared"
    TIMEOUT = "timed out without declaring a long-running program"
    SANDBOX = "the sandbox did not run the command"
    PARSE_LOST = "allowed although its parse could not be read"
    # reported, not counted
    CONFIG_READ = "config read"
    INDEX_REFRESH = "index refresh"
    STARTUP_EXEC = "startup exec"
    TEMP_FILE = "temp file"
    CAPPED = "long-running, capped"


INFO_KINDS = frozenset({Kind.CONFIG_READ, Kind.INDEX_REFRESH, Kind.STARTUP_EXEC, Kind.TEMP_FILE, Kind.CAPPED})


class Severity(StrEnum):
    """How bad a finding is, for the reports on corpora from outside the project: *high* is
    harm an attacker wants (a secret read, a change outside the workspace, network, a planted
    program run, an allow the oracle cannot check), *medium* an effect the decision did not
    declare, *low* a run that says little (a timeout), *info* what is reported, not counted."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    INFO = "info"


SEVERITY: dict[Kind, Severity] = {
    Kind.CREDENTIAL_READ: Severity.HIGH,
    Kind.WRITE_OUTSIDE: Severity.HIGH,
    Kind.DELETE_OUTSIDE: Severity.HIGH,
    Kind.WRITE_PROTECTED: Severity.HIGH,
    Kind.EXEC_UNTRUSTED: Severity.HIGH,
    Kind.NETWORK: Severity.HIGH,
    Kind.PARSE_LOST: Severity.HIGH,
    Kind.READ_OUTSIDE: Severity.MEDIUM,
    Kind.WRITE_UNDECLARED: Severity.MEDIUM,
    Kind.DELETE_UNDECLARED: Severity.MEDIUM,
    Kind.EXEC_UNDECLARED: Severity.MEDIUM,
    Kind.SANDBOX: Severity.MEDIUM,
    Kind.TIMEOUT: Severity.LOW,
    **dict.fromkeys(INFO_KINDS, Severity.INFO),
}


@dataclass(frozen=True, slots=True)
class Finding:
    kind: Kind
    path: str
    line: str

    @property
    def violation(self) -> bool:
        return self.kind not in INFO_KINDS

    @property
    def severity(self) -> Severity:
        return SEVERITY[self.kind]


@dataclass(frozen=True, slots=True)
class Declaration:
    programs: frozenset[str]  # basenames the decision names (commands and wrappers)
    writes: bool
    deletes: bool
    network: bool
    long_running: bool
    #: The gate's own parse of the command was readable (decidable): an allow built on a
    #: parse the classifier could not read is a finding of its own, whatever the run did.
    parsed: bool = True

    @classmethod
    def of(cls, evaluation: Evaluation, analysis: ShellAnalysis) -> Declaration:
        names = {tables.SHELL}
        for command in analysis.commands:
            if command.program:
                names.add(os.path.basename(command.program))
            names.update(w.split()[0] for w in command.wrappers if w.split())
        effects = set(evaluation.effects)
        return cls(
            programs=frozenset(names),
            writes=Effect.WRITE in effects,
            deletes=Effect.DELETE in effects,
            network=Effect.NETWORK in effects,
            long_running=bool(names & tables.LONG_RUNNING),
            parsed=analysis.decidable,
        )


@dataclass(frozen=True, slots=True)
class Where:
    """The fixture's two roots, as the sandbox sees them."""

    home: str
    workspace: str

    def in_workspace(self, path: str) -> bool:
        return path == self.workspace or path.startswith(self.workspace + "/")

    def in_home(self, path: str) -> bool:
        return path == self.home or path.startswith(self.home + "/")

    def rel(self, path: str, root: str) -> str:
        return os.path.relpath(path, root)


def is_credential(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return (
        any(d in parts[:-1] for d in tables.CREDENTIAL_DIRS)
        or name in tables.CREDENTIAL_NAMES
        or name.endswith(tables.CREDENTIAL_SUFFIXES)
        or name.startswith(tables.CREDENTIAL_PREFIXES)
    )


def _under(rel: str, entries: tuple[str, ...]) -> bool:
    return any(rel == e.rstrip("/") or (e.endswith("/") and rel.startswith(e)) for e in entries)


def _is_system_read(path: str) -> bool:
    return path in tables.SYSTEM_READ_EXACT or path.startswith(tables.SYSTEM_READ_PREFIXES)


def _read(event: Event, where: Where, executed: set[str]) -> Kind | None:
    path = event.path
    if not event.ok or not path.startswith("/"):
        return None  # a failed open read nothing; "pipe:[…]" and the like are no files
    if is_credential(path):
        return Kind.CREDENTIAL_READ
    if where.in_workspace(path) or _is_system_read(path):
        return None
    if where.in_home(path):
        rel = where.rel(path, where.home)
        if any(_under(rel, tables.CONFIG_READS.get(p, ())) for p in executed):
            return Kind.CONFIG_READ
    return Kind.READ_OUTSIDE


def _write(
    event: Event, where: Where, declared: Declaration, executed: set[str], temp: set[str]
) -> Kind | None:
    path = event.path
    if not path.startswith("/") or path.startswith(tables.DEVICE_WRITES):
        return None
    if path in temp:
        return Kind.TEMP_FILE
    rel = where.rel(path, where.workspace) if where.in_workspace(path) else None
    if rel is not None and "git" in executed and rel in tables.GIT_INDEX_FILES:
        return Kind.INDEX_REFRESH
    if rel is None:
        return Kind.WRITE_OUTSIDE if event.op is Op.WRITE else Kind.DELETE_OUTSIDE
    if _under(rel, tables.PROTECTED_IN_WORKSPACE):
        return Kind.WRITE_PROTECTED
    if event.op is Op.DELETE and declared.writes and "git" in executed and _git_lock(rel):
        return None  # a git write renames its lock file over the ref it replaces: the write itself
    if event.op is Op.WRITE and not declared.writes:
        return Kind.WRITE_UNDECLARED
    if event.op is Op.DELETE and not declared.deletes:
        return Kind.DELETE_UNDECLARED
    return None


def _git_lock(rel: str) -> bool:
    return rel.startswith(".git/") and rel.endswith(".lock")


def _exec(event: Event, declared: Declaration, executed: set[str], startup: bool) -> Kind | None:
    if not event.ok:
        return None  # PATH lookups that missed
    if not event.path.startswith(tables.SYSTEM_EXEC_DIRS):
        return Kind.EXEC_UNTRUSTED
    name = os.path.basename(event.path)
    helpers = {h for p in executed for h in tables.HELPERS.get(p, ())}
    script = os.path.basename(event.detail)
    interpreted = event.detail.startswith(tables.SYSTEM_EXEC_DIRS) and script in declared.programs
    if name in declared.programs or name in helpers or interpreted:
        return None
    return Kind.STARTUP_EXEC if startup and name in tables.STARTUP_EXECS else Kind.EXEC_UNDECLARED


def _connect(event: Event, declared: Declaration) -> Kind | None:
    if declared.network or event.detail in tables.LOCAL_FAMILIES:
        return None
    probe = event.line.split("(", 1)[0].endswith("bind") and "port=htons(0)" in event.path
    if probe and any(address in event.path for address in tables.LOOPBACK_PROBES):
        return None
    if event.detail == "AF_UNIX" and any(f'"{s}"' in event.path for s in tables.ALLOWED_UNIX_SOCKETS):
        return None
    return Kind.NETWORK


def _temp_files(events: list[Event], where: Where) -> set[str]:
    """Scratch files both created and removed during the run, outside the fixture."""

    def scratch(e: Event) -> bool:
        return e.path.startswith(tables.TEMP_DIRS) and not where.in_home(e.path)

    created = {e.path for e in events if e.op is Op.WRITE and scratch(e)}
    return created & {e.path for e in events if e.op is Op.DELETE and e.ok and scratch(e)}


def judge(events: list[Event], declared: Declaration, where: Where) -> list[Finding]:
    """Findings in trace order (first occurrence of each kind and path)."""
    executed = {os.path.basename(e.path) for e in events if e.op is Op.EXEC and e.ok}
    startup = any(e.op is Op.READ and e.ok and e.path == tables.STARTUP_FILE for e in events)
    temp = _temp_files(events, where)
    findings: list[Finding] = []
    seen: set[tuple[Kind, str]] = set()
    for event in events:
        if event.op is Op.READ:
            kind = _read(event, where, executed)
        elif event.op in (Op.WRITE, Op.DELETE):
            kind = _write(event, where, declared, executed, temp)
        elif event.op is Op.EXEC:
            kind = _exec(event, declared, executed, startup)
        else:
            kind = _connect(event, declared)
        if kind is not None and (kind, event.path) not in seen:
            seen.add((kind, event.path))
            findings.append(Finding(kind, event.path, event.line))
    return findings


def judge_run(trace: tuple[str, ...], timed_out: bool, declared: Declaration, where: Where) -> list[Finding]:
    """The findings of one run, including the ones about the run itself."""
    evs = events(trace)
    findings = judge(evs, declared, where)
    if not declared.parsed:
        findings.append(
            Finding(Kind.PARSE_LOST, "", "the classifier's parse of this command is not decidable")
        )
    if not any(e.op is Op.EXEC and e.ok and os.path.basename(e.path) == tables.SHELL for e in evs):
        findings.append(Finding(Kind.SANDBOX, "", "no execve of the shell in the trace"))
    if timed_out:
        kind = Kind.CAPPED if declared.long_running else Kind.TIMEOUT
        findings.append(Finding(kind, "", "killed at the timeout"))
    return findings
