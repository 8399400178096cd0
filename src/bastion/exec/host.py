"""The machine's sandbox, as the Gatekeeper's containment stage sees it
(:class:`bastion.runtime.contain.Containability`): can a profile be contained here, the run
of an allowed call built before its answer is recorded, and the runs that have ended."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bastion.exec.select import bwrap_problem

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.exec.prepared import PreparedRun
    from bastion.exec.settings import ExecConfig
    from bastion.exec.settle import Settled
    from bastion.policy.compiled import Policy
    from bastion.policy.containment import Profile


class HostSandbox:
    """Answers the Gatekeeper's "can this profile be contained here?"
    (:class:`bastion.runtime.contain.Containability`): a working bubblewrap, and roots
    small enough to check for credentials and protected paths; and builds the contained
    run of an allowed call (:mod:`bastion.exec.prepared`), which answers the same question
    with one scan of the roots."""

    def __init__(self, policy: Policy, config: ExecConfig) -> None:
        self.policy = policy
        self.config = config

    def prepare(self, call: ToolCall, profile: Profile) -> PreparedRun | str:
        """The run of the shell ``call`` in ``profile``, or why it cannot be contained here.
        Earlier runs are not settled here (:meth:`finished` does that after the answer)."""
        from bastion.exec.prepared import PreparedRun, prepare
        from bastion.exec.settle import CallOrigin

        problem = bwrap_problem()
        if problem is not None:
            return _no_sandbox(problem)
        origin = CallOrigin(str(call.args.get("command", "")), call.session, call.agent, call.turn)
        run = prepare(self.policy, self.config, profile, cwd=call.cwd, environ={"HOME": self.policy.home},
                      call=origin,
                      settle_first=False)  # fmt: skip
        return run if isinstance(run, PreparedRun) else run.reason

    def finished(self) -> tuple[Settled, ...]:
        """The prepared runs that ended since the last look, their after-work done."""
        from bastion.exec.prepared import runs_dir
        from bastion.exec.settle import settle

        return settle(runs_dir(self.policy.state_dir))

    def problem(self, profile: Profile) -> str | None:
        from bastion.exec.boundary import protection, sandbox_roots
        from bastion.exec.protected import ScanBudgetExceeded

        problem = bwrap_problem()
        if problem is not None:
            return _no_sandbox(problem)
        writable, readonly, _ = sandbox_roots(self.policy, writes=profile.writable)
        try:
            protection(self.policy, self.config, writable, readonly)
        except ScanBudgetExceeded as exc:
            return str(exc)
        return None


def _no_sandbox(problem: str) -> str:
    return f'this call cannot run contained here ({problem}); run it yourself, or set [exec] contain = "off"'
