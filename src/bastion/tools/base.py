"""What every tool shares: the authorizer port, the context, the result and the run loop.

A tool never decides anything itself. ``Tool.run`` checks the arguments against the
schema, asks the ``Authorizer`` (the gate, then a person if it asks), runs only on ALLOW,
and reports the outcome back to the authorizer for the audit ledger.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.configuration import Configuration
from bastion.errors import BastionError
from bastion.exec.runner import Runner
from bastion.exec.secrets import SecretStore
from bastion.exec.settings import ExecConfig
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Evaluation
from bastion.policy.engine import Gate
from bastion.policy.network import Resolver
from bastion.tools.schema import validate
from bastion.tools.session_table import Background

if TYPE_CHECKING:
    from bastion.exec.egress.net import Dialer


class Authorizer(Protocol):
    """The port to the approval and audit machinery (the Gatekeeper plugs in here)."""

    async def request(self, call: ToolCall) -> Evaluation:
        """The final decision for ``call``: ALLOW runs it, anything else does not."""
        ...

    def record_execution(
        self, call: ToolCall, evaluation: Evaluation, exit_code: int | None, duration: float
    ) -> None:
        """Called once after an allowed call ran (or failed to)."""
        ...


class GateAuthorizer:
    """Decides with the gate alone: ASK counts as not allowed (nobody can be asked)."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.executions: list[tuple[ToolCall, Decision, int | None]] = []

    async def request(self, call: ToolCall) -> Evaluation:
        return self.gate.evaluate(call)

    def record_execution(
        self, call: ToolCall, evaluation: Evaluation, exit_code: int | None, duration: float
    ) -> None:
        self.executions.append((call, evaluation.decision, exit_code))


class ToolError(BastionError):
    """An allowed call that could not do its work (file missing, no match, …)."""


@dataclass(frozen=True, slots=True)
class ToolContext:
    configuration: Configuration  # the policy the gate decides with, and ``[exec]``
    authorizer: Authorizer
    runner: Runner | None
    resolver: Resolver
    cwd: str
    environ: Mapping[str, str]
    interactive: bool = False
    #: How the egress proxy of an install reaches a host (None: the real network).
    dialer: Dialer | None = None
    #: The sessions and jobs started through this context, and their limits.
    background: Background = field(default_factory=Background)

    @property
    def policy(self) -> Policy:
        return self.configuration.policy

    @property
    def config(self) -> ExecConfig:
        return self.configuration.exec

    @property
    def secrets(self) -> SecretStore:
        return SecretStore(self.policy.credentials_dir, self.config.secrets)


@dataclass(frozen=True, slots=True)
class ToolResult:
    ok: bool
    decision: str
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False
    timed_out: bool = False
    message: str = ""
    duration: float = 0.0
    data: Mapping[str, Any] = field(default_factory=dict)
    reasons: tuple[Mapping[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "decision": self.decision,
            "exit_code": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "truncated": self.truncated,
            "timed_out": self.timed_out,
            "message": self.message,
            "duration": round(self.duration, 6),
            "data": dict(self.data),
            "reasons": [dict(r) for r in self.reasons],
        }


def refused(evaluation: Evaluation, message: str | None = None) -> ToolResult:
    text = message or evaluation.message
    if evaluation.decision is Decision.ASK:
        text = f"needs approval and was not approved: {text}"
    return ToolResult(
        ok=False,
        decision=evaluation.decision.label,
        message=text,
        reasons=tuple(r.to_json() for r in evaluation.reasons),
    )


def hints(*, read_only: bool, destructive: bool, idempotent: bool, open_world: bool) -> Mapping[str, bool]:
    """MCP-style tool annotations, stated honestly."""
    return MappingProxyType(
        {
            "readOnlyHint": read_only,
            "destructiveHint": destructive,
            "idempotentHint": idempotent,
            "openWorldHint": open_world,
        }
    )


class Prepared(Protocol):
    """What a tool holds open from before the decision until its I/O (a pinned directory)."""

    def close(self) -> None: ...


class Tool(abc.ABC):
    """One reference tool. Subclasses set the class attributes and ``execute``."""

    name: ClassVar[str]
    family: ClassVar[Family]
    description: ClassVar[str]
    annotations: ClassVar[Mapping[str, bool]]

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx

    @property
    def schema(self) -> dict[str, Any]:
        return self.build_schema()

    @abc.abstractmethod
    def build_schema(self) -> dict[str, Any]: ...

    def call_args(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments the gate sees (by default: all of them)."""
        return dict(args)

    @abc.abstractmethod
    async def execute(
        self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation
    ) -> ToolResult: ...

    def prepare(self, args: Mapping[str, Any], call: ToolCall) -> Prepared | None:
        """Called before the decision; what it returns is passed to ``execute_prepared``
        and closed after the call. Must not raise (errors are reported after ALLOW)."""
        return None

    async def execute_prepared(
        self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation, prepared: Prepared | None
    ) -> ToolResult:
        return await self.execute(args, call, evaluation)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.schema,
            "annotations": dict(self.annotations),
        }

    async def run(self, args: Mapping[str, Any], *, cwd: str | None = None) -> dict[str, Any]:
        """Check, authorize, run, record. Always returns a JSON-able result dict."""
        try:
            clean = validate(self.name, self.schema, args)
            call = ToolCall(
                tool=self.family.value,
                args=self.call_args(clean),
                cwd=cwd or self.ctx.cwd,
                interactive=self.ctx.interactive,
            )
        except BastionError as exc:
            return ToolResult(ok=False, decision="deny", message=str(exc)).to_json()
        # Pinned before the decision: the I/O uses what the gate checked, not what the
        # path names after a person took minutes to answer.
        prepared = self.prepare(clean, call)
        try:
            evaluation = await self.ctx.authorizer.request(call)
            if evaluation.decision is not Decision.ALLOW:
                return refused(evaluation).to_json()
            start = time.monotonic()
            try:
                result = await self.execute_prepared(clean, call, evaluation, prepared)
            except BastionError as exc:
                result = ToolResult(ok=False, decision="allow", message=str(exc))
            except Exception as exc:  # reported and audited, never a crash of the host
                message = f"internal error: {type(exc).__name__}"
                result = ToolResult(ok=False, decision="allow", message=message)
        finally:
            if prepared is not None:
                prepared.close()
        duration = time.monotonic() - start
        self.ctx.authorizer.record_execution(call, evaluation, result.exit_code, duration)
        data = result.to_json()
        data["duration"] = round(duration, 6)
        data["reasons"] = data["reasons"] or [r.to_json() for r in evaluation.reasons]
        return data
