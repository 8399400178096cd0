"""Start agents under a ceiling: survey, failover within one session, resume, bypass.

All I/O goes through ``Ports`` (probe, run, PATH, stderr, events) so tests swap in fakes.
Events go to ``on_event(dict)``; it is a no-op until the ledger is plugged in there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TextIO

from bastion.errors import BastionError
from bastion.launch.agents import KNOWN, Capture, capture_output, locate, read_help, spec_for
from bastion.launch.agents import version_of as _version_of
from bastion.launch.mapping import Mapping, map_ceiling
from bastion.launch.sessions import Run, Session, SessionStore, new_session
from bastion.launch.validate import check
from bastion.policy.ceiling import BYPASS, Ceiling

BANNER = "PERMISSIONS BYPASSED"
NOT_STARTED = 3  # exit code when no agent of the session could be started
_NOTHING_STARTS = frozenset({"--help", "-h", "--version"})


class EventSink(Protocol):
    def __call__(self, event: dict[str, Any], /) -> None: ...


def no_events(event: dict[str, Any], /) -> None:
    """The default sink: records nothing (the ledger plugs in here)."""


class Runner(Protocol):
    def __call__(self, argv: Sequence[str], /) -> int: ...


def run_inherited(argv: Sequence[str], /) -> int:
    """Run the agent on this terminal; its exit code (127 if it cannot be executed)."""
    try:
        return subprocess.call(list(argv))
    except OSError:
        return 127
    except KeyboardInterrupt:
        return 130


class LaunchRefused(BastionError):
    """A launch or resume that would raise a ceiling, or a bypass that starts nothing."""


@dataclass(frozen=True, slots=True)
class Ports:
    capture: Capture = capture_output
    run: Runner = run_inherited
    path: str | None = None  # PATH to search (None: the process's own)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    on_event: EventSink = no_events


@dataclass(frozen=True, slots=True)
class AgentReport:
    agent: str
    path: str | None
    version: str | None
    mapping: Mapping
    command: tuple[str, ...] = ()  # the full argv when started

    def as_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "path": self.path,
            "version": self.version,
            "started": self.mapping.started,
            "flags": list(self.mapping.flags),
            "notes": list(self.mapping.notes),
            "assumptions": list(self.mapping.assumptions),
        }


def survey(agent: str, ceiling: Ceiling, agent_args: Sequence[str], ports: Ports) -> AgentReport:
    """Find one agent, read the help of the command that will run, map the ceiling."""
    spec = spec_for(agent)
    path = locate(spec, ports.path)
    if path is None:
        note = f"not started: {spec.executables[0]} not found on PATH"
        return AgentReport(agent, None, None, Mapping(agent, ceiling, False, (), None, (note,)))
    version = _version_of(path, ports.capture)
    read = read_help(spec, path, agent_args, ports.capture)
    mapping = map_ceiling(
        spec,
        read.help,
        ceiling,
        read.rest,
        present=lambda helper: shutil.which(helper, path=ports.path) is not None,
    )
    if not mapping.started or mapping.effective is None:
        return AgentReport(agent, path, version, mapping)
    verdict = check(mapping.effective, ceiling)
    if not verdict.ok:  # the mapping is checked again here: no path around the validator
        notes = ("not started: mapping rejected: " + "; ".join(verdict.violations),)
        return AgentReport(agent, path, version, replace(mapping, started=False, flags=(), notes=notes))
    sub = (read.subcommand,) if read.subcommand else ()
    return AgentReport(agent, path, version, mapping, (path, *sub, *mapping.flags, *read.rest))


def survey_known(ceiling: Ceiling, ports: Ports) -> list[AgentReport]:
    """Every known agent found on PATH, with the mapping it would get."""
    found = [name for name in KNOWN if locate(KNOWN[name], ports.path)]
    return [survey(name, ceiling, (), ports) for name in found]


@dataclass(frozen=True, slots=True)
class Outcome:
    session: Session
    exit_code: int


def _banner(stream: TextIO, agent: str, moment: str) -> None:
    stream.write(f"\n*** {BANNER}: {agent} {moment} with never_ask, unrestricted, allowed ***\n")
    if stream.isatty():
        stream.write(f"\033]0;{BANNER} - {agent}\007")
    stream.flush()


def launch(
    agents: Sequence[str],
    ceiling: Ceiling,
    source: str,
    agent_args: Sequence[str],
    *,
    store: SessionStore,
    ports: Ports,
    cwd: str,
    bypass: bool = False,
    refresh: Callable[[], Ceiling] | None = None,
    parent: str | None = None,
) -> Outcome:
    """Create a session and start its agents in order until one runs to a clean exit.
    ``parent`` makes it a child session: ``ceiling`` must be the parent's or stricter."""
    if bypass and _NOTHING_STARTS & set(agent_args):
        raise LaunchRefused("--bypass-permissions is refused for a command that starts nothing")
    if parent is not None:
        _fits_parent(store.load(parent), ceiling, bypass, ports)
    if bypass:
        ceiling, source = BYPASS, "--bypass-permissions"
    session = new_session(
        tuple(agents), tuple(agent_args), ceiling, source, cwd, bypassed=bypass, parent=parent
    )
    store.save(session)
    ports.on_event(
        {
            "type": "launch.session_created",
            "session": session.id,
            "agents": list(agents),
            "ceiling": ceiling.text(),
            "source": source,
            **({"parent": parent} if parent is not None else {}),
        }
    )
    return _run(session, ceiling, store, ports, bypass, None if bypass else refresh)


def _fits_parent(parent: Session, ceiling: Ceiling, bypass: bool, ports: Ports) -> None:
    """A child session never starts looser than its parent (nor bypassed)."""
    asked = BYPASS if bypass else ceiling
    if asked.meet(parent.ceiling) != asked:
        ports.on_event(
            {
                "type": "launch.child_refused",
                "parent": parent.id,
                "requested": asked.text(),
                "saved": parent.ceiling.text(),
            }
        )
        what = "--bypass-permissions" if bypass else f"ceiling {asked.text()}"
        raise LaunchRefused(
            f"a child of session {parent.id} may not be launched with {what}: "
            f"its parent's ceiling is {parent.ceiling.text()}"
        )


def resume(
    session_id: str,
    current: Ceiling,
    source: str,
    *,
    store: SessionStore,
    ports: Ports,
    requested: Ceiling | None = None,
    bypass: bool = False,
    refresh: Callable[[], Ceiling] | None = None,
) -> Outcome:
    """Run a saved session again; its ceiling never rises, a stricter current one applies."""
    session = store.load(session_id)
    asked = BYPASS if bypass else requested
    if asked is not None and asked.meet(session.ceiling) != asked:
        flag = "--bypass-permissions" if bypass else "--ceiling"
        ports.on_event(
            {
                "type": "launch.resume_refused",
                "session": session.id,
                "requested": asked.text(),
                "saved": session.ceiling.text(),
            }
        )
        raise LaunchRefused(
            f"resume {flag} refused: the session's saved ceiling "
            f"{session.ceiling.text()} is stricter than {asked.text()}"
        )
    ceiling = session.ceiling if bypass else session.ceiling.meet(asked or current)
    lowered = session.lowered_to(ceiling, source)
    if lowered is not session:
        ports.on_event(
            {
                "type": "launch.ceiling_lowered",
                "session": session.id,
                "from": session.ceiling.text(),
                "to": ceiling.text(),
                "source": source,
            }
        )
        store.save(lowered)
    return _run(lowered, ceiling, store, ports, bypass, None if bypass else refresh)


def _run(
    session: Session,
    ceiling: Ceiling,
    store: SessionStore,
    ports: Ports,
    bypass: bool,
    refresh: Callable[[], Ceiling] | None,
) -> Outcome:
    code = NOT_STARTED
    for index, agent in enumerate(session.agents):
        if index and refresh is not None:  # a stricter configuration applies to the next run
            ceiling = ceiling.meet(refresh())
            session = session.lowered_to(ceiling, "configuration")
        report = survey(agent, ceiling, session.agent_args, ports)
        base = {"session": session.id, "agent": agent, "ceiling": ceiling.text()}
        if not report.mapping.started:
            session = session.with_run(
                Run(agent, False, (), ceiling, None, report.mapping.notes, bypass, time.time())
            )
            store.save(session)
            ports.on_event({"type": "launch.agent_not_started", **base, "notes": list(report.mapping.notes)})
            ports.stderr.write(f"bastion: {agent}: {'; '.join(report.mapping.notes)}\n")
            continue
        if bypass:
            ports.on_event({"type": "launch.bypass", **base})
            _banner(ports.stderr, agent, "starts")
        ports.on_event(
            {
                "type": "launch.agent_started",
                **base,
                "command": list(report.command),
                "flags": list(report.mapping.flags),
                "bypassed": bypass,
            }
        )
        code = ports.run(report.command)
        if bypass:
            _banner(ports.stderr, agent, f"exited ({code}); it ran")
        session = session.with_run(
            Run(agent, True, report.mapping.flags, ceiling, code, report.mapping.notes, bypass, time.time())
        )
        store.save(session)
        ports.on_event({"type": "launch.agent_exited", **base, "exit_code": code})
        if code in (0, 130):  # a clean exit, or the person interrupted it: no failover
            break
    return Outcome(session, code)
