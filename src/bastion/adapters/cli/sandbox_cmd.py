"""``bastion sandbox run --profile P [--host H…] [--write PATH…] [--cwd DIR] [--timeout S]
[--policy FILE] [--approval ID | --hand-off ID] -- CMD…`` and ``bastion sandbox prepare``
(the same options; prints the line that runs CMD in the same sandbox with no Python, see
``bastion.exec.prepared``).

Runs one command inside Bastion's sandbox in the named profile (``read-only``,
``workspace-write`` or ``workspace-code``, the workspace writable but its venvs and
``node_modules`` read-only; ``--host`` names a host the run may reach, ``--write`` a path outside
the workspace a person approved it to write; ``--approval ID``, the request a person approved
in Bastion's queue, whose hosts the run's proxy then does not ask about again once the
approvals store confirms it: ``bastion.runtime.approved_run``; ``--hand-off ID``, the same for
an ASK handed to the agent's own prompt, confirmed in the ledger: ``bastion.runtime.handed_run``),
or a whole agent CLI in ``agent:AGENT`` (what ``bastion launch AGENT`` runs it in; see
``agent_sandbox``). This is what a hook's rewritten shell call runs. Dispatched before the
CLI framework is imported: it runs once per contained call. Every run is a ledger record
(metadata only: the arguments' hash).

Exit status: the command's own; 124 when it was killed at the timeout; 126 when it could
not be run contained (no sandbox, a tree too big to check): it is then not run at all.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bastion.errors import BastionError

if TYPE_CHECKING:
    from bastion.policy.containment import Profile

USAGE = (
    "usage: bastion sandbox run|prepare --profile read-only|workspace-write|workspace-code|agent:AGENT "
    "[--host HOST]... [--write PATH]... [--cwd DIR] [--timeout SECONDS] [--policy FILE] "
    "[--approval ID | --hand-off ID] -- COMMAND [ARG]...\n"
)
EXIT_TIMEOUT = 124
EXIT_NOT_RUN = 126


class UsageError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class SandboxArgs:
    profile: str
    hosts: tuple[str, ...]
    cwd: str
    timeout: float | None
    policy: str | None
    argv: tuple[str, ...]
    #: ``--write PATH``: a path outside the workspace the approved call may write.
    writes: tuple[str, ...] = ()
    #: ``--approval ID``: the request a person approved (checked against the store, never trusted).
    approval: str | None = None
    #: ``--hand-off ID``: the ASK handed to the agent's prompt (checked against the ledger).
    hand_off: str | None = None


def parse_args(args: list[str], cwd: str) -> SandboxArgs:
    if args[:1] not in (["run"], ["prepare"]):
        raise UsageError("the sandbox commands are 'run' and 'prepare'")
    rest = list(args[1:])
    values: dict[str, str] = {}
    hosts: list[str] = []
    writes: list[str] = []
    while rest and rest[0] != "--":
        flag = rest.pop(0)
        name, eq, inline = flag.partition("=")
        if name not in (
            "--profile",
            "--host",
            "--write",
            "--cwd",
            "--timeout",
            "--policy",
            "--approval",
            "--hand-off",
        ):
            raise UsageError(f"unknown option {flag!r}")
        if not eq:
            if not rest:
                raise UsageError(f"{name} needs a value")
            inline = rest.pop(0)
        if name == "--host":
            hosts.append(inline)
        elif name == "--write":
            writes.append(inline)
        else:
            values[name[2:]] = inline
    if not rest or rest[0] != "--" or len(rest) < 2:
        raise UsageError("give the command after '--'")
    if "profile" not in values:
        raise UsageError("--profile is required")
    try:
        timeout = float(values["timeout"]) if "timeout" in values else None
    except ValueError:
        raise UsageError("--timeout must be seconds") from None
    if timeout is not None and not 0 < timeout <= 86_400:
        raise UsageError("--timeout must be in (0, 86400]")
    where = os.path.abspath(values.get("cwd", cwd))
    return SandboxArgs(
        values["profile"], tuple(hosts), where, timeout, values.get("policy"), tuple(rest[1:]), tuple(writes),
        values.get("approval"), values.get("hand-off"),
    )  # fmt: skip


def run_sandbox(args: list[str], env: Mapping[str, str] | None = None) -> int:
    environ = os.environ if env is None else env
    try:
        parsed = parse_args(args, os.getcwd())
    except UsageError as exc:
        sys.stderr.write(f"bastion sandbox: {exc}\n{USAGE}")
        return 2
    try:
        return _run(parsed, environ)
    except BastionError as exc:
        sys.stderr.write(f"bastion sandbox: not run: {exc}\n")
        return EXIT_NOT_RUN


def prepare_sandbox(args: list[str], env: Mapping[str, str] | None = None) -> int:
    """Print the shell line of a prepared run of the command (one word: a shell command
    string for ``bash -c``; more: those words, quoted); 126 and the reason when it cannot
    be contained here (the reason a hook would ask with)."""
    import shlex

    from bastion.adapters.hooks.policy_cache import load_cached_policy
    from bastion.exec.prepared import PreparedRun, prepare
    from bastion.exec.profile import parse_profile

    environ = os.environ if env is None else env
    try:
        parsed = parse_args(args, os.getcwd())
        profile = parse_profile(parsed.profile, parsed.hosts, parsed.writes)
        loaded = load_cached_policy(parsed.policy, cwd=parsed.cwd, env=environ)
    except UsageError as exc:
        sys.stderr.write(f"bastion sandbox: {exc}\n{USAGE}")
        return 2
    except BastionError as exc:
        sys.stderr.write(f"bastion sandbox: {exc}\n")
        return EXIT_NOT_RUN
    command = parsed.argv[0] if len(parsed.argv) == 1 else shlex.join(parsed.argv)
    run = prepare(
        loaded.policy, loaded.exec, profile, cwd=parsed.cwd, environ=environ, timeout=parsed.timeout
    )
    if not isinstance(run, PreparedRun):
        sys.stderr.write(f"bastion sandbox: {run.reason}\n")
        return EXIT_NOT_RUN
    _write(1, run.shell_command(command) + "\n")
    return 0


def _run(parsed: SandboxArgs, environ: Mapping[str, str]) -> int:
    from bastion.adapters.hooks.policy_cache import load_cached_policy
    from bastion.exec.boundary import build_spec
    from bastion.exec.bubblewrap import BubblewrapRunner
    from bastion.exec.profile import parse_profile
    from bastion.exec.runner import SandboxUnavailable
    from bastion.exec.select import bwrap_problem

    profile = parse_profile(parsed.profile, parsed.hosts, parsed.writes)
    loaded = load_cached_policy(parsed.policy, cwd=parsed.cwd, env=environ)
    if profile.agent:  # the agent CLI itself: on this terminal, behind its hooks and proxy
        return _run_agent(parsed, loaded, environ, profile.agent, profile.label)
    policy = loaded.policy
    problem = bwrap_problem()
    if problem is not None:
        raise SandboxUnavailable(problem)
    config = loaded.exec
    if parsed.timeout is not None:  # the agent's own timeout for its shell tool
        config = dataclasses.replace(config, timeout=parsed.timeout)
    spec = build_spec(policy, config, parsed.argv, cwd=parsed.cwd, environ=environ, profile=profile)
    with contextlib.ExitStack() as stack:
        if profile.hosts:  # network only through the egress proxy, decided per connection
            spec = _behind_proxy(stack, loaded, environ, spec, parsed, profile)
        result = BubblewrapRunner().run(spec)
    _write(1, result.stdout)
    _write(2, result.stderr)
    if result.swept:
        _write(
            2, f"bastion sandbox: moved out protected paths the command created: {', '.join(result.swept)}\n"
        )
    code = EXIT_TIMEOUT if result.exit_code is None else result.exit_code
    _record(loaded, environ, parsed, profile.label, code, result.duration)
    return code


def _run_agent(parsed: SandboxArgs, loaded: Any, environ: Mapping[str, str], agent: str,
               label: str) -> int:  # fmt: skip
    import time

    from bastion.adapters.cli.agent_sandbox import contained_agent, run_inherited

    started = time.monotonic()
    with contained_agent(loaded, environ, agent, parsed.argv, cwd=parsed.cwd, timeout=parsed.timeout) as spec:
        code = run_inherited(spec, parsed.timeout)
    _record(loaded, environ, parsed, label, code, time.monotonic() - started)
    return code


def _behind_proxy(stack: contextlib.ExitStack, loaded: Any, environ: Mapping[str, str], spec: Any,
                  parsed: SandboxArgs, profile: Profile) -> Any:  # fmt: skip
    """Start the egress proxy for this run: every connection the command makes is decided by
    the same gate (hosts that ask park until a person answers; not those of the request a
    person approved, ``--approval``), to the profile's hosts only (``exec.hosts-only``); held
    secrets stay outside. An ssh destination (``h:22``) gets the ssh agent's socket and ssh
    through the proxy (``bastion.exec.egress.ssh``)."""
    from bastion.construct import open_gatekeeper, sibling
    from bastion.exec.egress.held import load_held
    from bastion.exec.egress.only import HostsGate
    from bastion.exec.egress.session import EgressSession
    from bastion.exec.egress.ssh import agent_socket

    keeper = stack.enter_context(open_gatekeeper(loaded, environ))
    held = load_held(loaded.policy.credentials_dir, loaded.exec.held)
    approved = None
    if parsed.approval is not None:
        approved = _approved(keeper, environ, parsed)
    elif parsed.hand_off is not None:
        approved = _handed(keeper, environ, parsed, profile)
    cwd = parsed.cwd
    session = EgressSession(
        sibling(keeper, HostsGate(keeper.gate, profile.hosts, approved)), held=held, cwd=cwd, agent="sandbox",
        ssh_hosts=profile.ssh_hosts, ssh_agent=agent_socket(environ), home=loaded.policy.home,
    )  # fmt: skip
    stack.enter_context(session)
    return dataclasses.replace(spec, network=False, egress=session.binding)


def _approved(keeper: Any, environ: Mapping[str, str], parsed: SandboxArgs) -> Any:
    """The approval this run rides on, checked against the store; None (and why, on
    stderr) when it is none: each connection is then decided as without it."""
    from bastion.policy.sources import state_dir_from
    from bastion.runtime.approved_run import ride_on

    assert parsed.approval is not None
    found = ride_on(keeper.store, keeper.hasher, parsed.approval, parsed.argv, cwd=parsed.cwd,
                    now=keeper.clock.now(), state_dir=state_dir_from(environ))  # fmt: skip
    if isinstance(found, str):
        _write(2, f"bastion sandbox: no approval to run on: {found}; each connection is decided as asked\n")
        return None
    return found


def _handed(keeper: Any, environ: Mapping[str, str], parsed: SandboxArgs, profile: Profile) -> Any:
    """The hand-off to the agent's prompt this run rides on, checked against the ledger; None
    (and why, on stderr) when it is none: each connection is then decided as without it."""
    from bastion.policy.sources import state_dir_from
    from bastion.runtime.handed_run import ride_on_hand_off

    assert parsed.hand_off is not None
    found = ride_on_hand_off(keeper.ledger, keeper.hasher, parsed.hand_off, parsed.argv, profile.hosts,
                             cwd=parsed.cwd, now=keeper.clock.now(), ttl=keeper.policy.ttl_seconds,
                             state_dir=state_dir_from(environ))  # fmt: skip
    if isinstance(found, str):
        _write(2, f"bastion sandbox: no approval to run on: {found}; each connection is decided as asked\n")
        return None
    return found


def _record(loaded: Any, environ: Mapping[str, str], parsed: SandboxArgs, label: str, code: int,
            duration: float) -> None:  # fmt: skip
    """The ledger record of one contained run: what ran (hashed), its profile, exit, time."""
    from bastion.call.effects import Effect
    from bastion.call.model import ToolCall
    from bastion.construct import open_gatekeeper
    from bastion.policy.decision import Decision, Evaluation, Reason

    command = parsed.argv[2] if parsed.argv[:2] == ("bash", "-c") and len(parsed.argv) == 3 else None
    args = {"command": command} if command is not None else {"argv": list(parsed.argv)}
    call = ToolCall(tool="shell", args=args, cwd=parsed.cwd, agent="sandbox")
    reason = Reason(Decision.ALLOW, "exec.contained", "built-in", label, f"ran contained: {label}")
    evaluation = Evaluation(Decision.ALLOW, (reason,), (Effect.UNKNOWN,))
    try:
        with open_gatekeeper(loaded, environ) as keeper:
            keeper.record_execution(call, evaluation, code, duration)
    except Exception as exc:  # the run is over: say so, never hide it
        _write(2, f"bastion sandbox: the ledger could not record this run: {type(exc).__name__}: {exc}\n")


def _write(fd: int, text: str) -> None:
    data = text.encode("utf-8", "replace")
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        pass


def register(app: object) -> None:
    """``bastion sandbox run`` is dispatched in ``main`` before typer; listed here for --help."""
    import typer

    assert isinstance(app, typer.Typer)
    group = typer.Typer(help="Run a command inside Bastion's sandbox in a profile.")

    def run(ctx: typer.Context) -> None:
        """bastion sandbox run --profile read-only|workspace-write|workspace-code [--host H]... -- CMD..."""
        raise typer.Exit(run_sandbox(["run", *ctx.args]))

    def prepare(ctx: typer.Context) -> None:
        """bastion sandbox prepare --profile P [--cwd D] -- CMD: print the line that runs CMD
        in the same sandbox with no Python (what a hook rewrites a call to)."""
        raise typer.Exit(prepare_sandbox(["prepare", *ctx.args]))

    run.__annotations__ = {"ctx": typer.Context, "return": None}  # typer reads real types
    prepare.__annotations__ = {"ctx": typer.Context, "return": None}
    settings = {"allow_extra_args": True, "ignore_unknown_options": True}
    group.command("run", context_settings=settings)(run)
    group.command("prepare", context_settings=settings)(prepare)
    app.add_typer(group, name="sandbox")
