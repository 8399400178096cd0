"""An agent CLI run whole inside the ``agent:AGENT`` profile: ``bastion launch AGENT`` and
``bastion sandbox run --profile agent:AGENT -- CMD``.

For the life of the run this process holds, outside the sandbox:

* a hook server on a socket of its own (``hook_socket``): the only thing of Bastion's state
  the agent sees, so its hooks still ask the gate for every call while the state dir, the
  policy and the ledger stay out of its reach;
* the egress proxy, the agent's only way out: its model API's hosts are allowed unless the
  policy denies them (``ModelHostsGate``), metadata and private addresses are refused as for
  every contained run, and every other connection is decided by the gate (and may ask).

The agent runs on this terminal (its standard streams are inherited); what the run left in
protected places that could not be bound read-only is moved to quarantine afterwards.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.policy.judge import GateWrapper, Judge

if TYPE_CHECKING:
    from bastion.configuration import Configuration
    from bastion.exec.runner import RunSpec

SOURCE = "agent profile"
EXIT_TIMEOUT = 124
EXIT_INTERRUPTED = 130
#: ``launch``'s code for an agent that did not start (it then tries the next one).
NOT_STARTED = 3


class ModelHostsGate(GateWrapper):
    """The egress proxy's gate for a contained agent: the policy decides every connection;
    a connection to the agent's model API that the policy would only ask about is allowed
    (the agent cannot work without it). A deny stays a deny: the policy overrides. (The one
    wrapper that loosens, and only an ASK, only for these hosts, only for this run.)"""

    def __init__(self, inner: Judge, agent: str, hosts: Sequence[str]) -> None:
        super().__init__(inner)
        self.agent = agent
        self.hosts = frozenset(h.lower() for h in hosts)

    def around(self, inner: Judge) -> ModelHostsGate:
        return ModelHostsGate(inner, self.agent, tuple(self.hosts))

    def judged(self, call: ToolCall, inner: Callable[[ToolCall], Evaluation]) -> Evaluation:
        evaluation = inner(call)
        if evaluation.decision is not Decision.ASK:
            return evaluation
        from bastion.tools.egress_run import connection_host

        try:
            host = connection_host(call)
        except Exception:  # fail closed: the policy's own answer stands
            return evaluation
        if host not in self.hosts:
            return evaluation
        message = f"{host} is {self.agent}'s model API: reachable by default in agent:{self.agent}"
        reason = Reason(Decision.ALLOW, "exec.agent-model-api", SOURCE, host, message)
        return Evaluation(Decision.ALLOW, (reason, *evaluation.reasons), (Effect.NETWORK,))


@contextlib.contextmanager
def hook_socket(environ: Mapping[str, str]) -> Iterator[str]:
    """A hook server for this run on ``<private folder>/hooks.sock``; yields the folder (the
    sandbox binds it read-only, so the socket is all the agent sees of Bastion's state)."""
    from bastion.adapters.hooks.daemon import HookServer, ResidentDecider, stop_hook_server

    folder = tempfile.mkdtemp(prefix="bastion-hooks-")
    try:
        server = HookServer(os.path.join(folder, "hooks.sock"), decider=ResidentDecider(), base_env=environ)
        threading.Thread(target=server.serve_forever, name="bastion-agent-hooks", daemon=True).start()
        try:
            yield folder
        finally:
            stop_hook_server(server)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def contained_agent(
    loaded: Configuration,
    environ: Mapping[str, str],
    agent: str,
    argv: Sequence[str],
    *,
    cwd: str,
    timeout: float | None = None,
) -> Iterator[RunSpec]:
    """The RunSpec of ``argv`` in ``agent:AGENT``, with its hook server and egress proxy
    running until the block ends. Raises ExecError (or SandboxUnavailable) when it cannot
    be contained: nothing then runs."""
    from bastion.construct import open_gatekeeper, sibling
    from bastion.exec.agent_profile import agent_spec
    from bastion.exec.egress.held import load_held
    from bastion.exec.egress.session import EgressSession
    from bastion.exec.runner import SandboxUnavailable
    from bastion.exec.select import bwrap_problem

    problem = bwrap_problem()
    if problem is not None:
        raise SandboxUnavailable(problem)
    with contextlib.ExitStack() as stack:
        hook_dir = stack.enter_context(hook_socket(environ))
        config = loaded.exec
        spec = agent_spec(loaded.policy, config, agent, argv, cwd=cwd, environ=environ, hook_dir=hook_dir,
                          timeout=timeout)  # fmt: skip
        keeper = stack.enter_context(open_gatekeeper(loaded, environ))
        proxy_keeper = sibling(keeper, ModelHostsGate(keeper.gate, agent, spec.hosts))
        held = load_held(loaded.policy.credentials_dir, loaded.exec.held)
        session = stack.enter_context(EgressSession(proxy_keeper, held=held, cwd=cwd, agent=agent))
        yield dataclasses.replace(spec, network=False, egress=session.binding)


def run_inherited(spec: RunSpec, timeout: float | None = None) -> int:
    """Run ``spec`` in bubblewrap on this terminal; its exit code (124 at the timeout, 130
    when interrupted). Protected paths it created are moved to quarantine afterwards."""
    from bastion.exec.bubblewrap import BubblewrapRunner, after_run

    runner = BubblewrapRunner()
    try:
        with contextlib.ExitStack() as stack:
            launch = runner.prepare(spec, stack)
            child = subprocess.Popen(
                list(launch.argv), cwd=launch.cwd, env=dict(launch.env), pass_fds=launch.pass_fds
            )
            try:
                code = child.wait(timeout)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
                code = EXIT_TIMEOUT
            except KeyboardInterrupt:
                child.terminate()
                child.wait()
                code = EXIT_INTERRUPTED
    finally:
        after_run(spec)
    return code


@dataclasses.dataclass(frozen=True)
class ContainedRunner:
    """``launch``'s runner: each agent it starts runs in its own ``agent:AGENT`` profile.
    ``agent_of`` maps an executable's path to the agent it is (from the survey)."""

    loaded: Configuration
    environ: Mapping[str, str]
    agent_of: Mapping[str, str]
    cwd: str

    def __call__(self, argv: Sequence[str], /) -> int:
        import sys

        from bastion.errors import BastionError

        agent = self.agent_of.get(argv[0]) if argv else None
        if agent is None:
            sys.stderr.write(f"bastion: not started: no agent profile for {argv[:1]}\n")
            return 126
        try:
            with contained_agent(self.loaded, self.environ, agent, argv, cwd=self.cwd) as spec:
                return run_inherited(spec)
        except BastionError as exc:
            sys.stderr.write(f"bastion: {agent} not started: it cannot be contained here: {exc}\n")
            hint = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or start it on the "
            sys.stderr.write(f"  hint: {hint}host with bastion launch --uncontained {agent}\n")
            return NOT_STARTED


def contained_start_checks(loaded: Configuration) -> list[tuple[str, bool, str]]:
    """``bastion doctor``: for each agent CLI on PATH that has an agent profile, whether
    ``bastion launch`` can start it contained here (bwrap works, the profile builds)."""
    from bastion.exec.agent_profile import AGENT_HOMES, contained_start_check
    from bastion.launch.agents import locate, spec_for

    checks = []
    for agent in AGENT_HOMES:
        if locate(spec_for(agent), None) is None:
            continue
        ok, detail = contained_start_check(
            loaded.policy, loaded.exec, agent, cwd=os.getcwd(), environ=os.environ
        )
        checks.append((f"contained start {agent}", ok, detail))
    return checks
