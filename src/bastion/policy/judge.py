"""What the Gatekeeper asks of a gate (:class:`Judge`), and a gate that tightens another
by wrapping it (:class:`GateWrapper`) instead of subclassing ``Gate``.

A wrapper answers every question the same way: ``evaluate`` and ``explain`` both go
through its own check over the inner gate's answer, and ``over`` (a delegated child's
narrower policy) rebuilds the same wrapper around the inner gate's ``over``. A subclass
of ``Gate`` that overrode only ``evaluate`` fell back to the plain gate in the other two.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.policy.compiled import Policy
    from bastion.policy.decision import Evaluation
    from bastion.shell.model import ShellAnalysis


class Judge(Protocol):
    """A gate: decides calls against one policy (``bastion.policy.engine.Gate`` is one)."""

    @property
    def policy(self) -> Policy: ...

    def analyze_shell(self, command: str, /) -> ShellAnalysis:
        """The shell analysis the gate judges a command by (cached by the real Gate)."""
        ...

    def evaluate(self, call: ToolCall) -> Evaluation: ...

    def explain(self, call: ToolCall) -> Evaluation: ...

    def over(self, policy: Policy) -> Judge: ...


class GateWrapper(ABC):
    """A gate that tightens ``inner``: ``judged`` sees each call with the inner gate's way of
    answering it (``evaluate`` or ``explain``), and ``around`` rebuilds this wrapper over
    another inner gate (for ``over``)."""

    def __init__(self, inner: Judge) -> None:
        self.inner = inner

    @property
    def policy(self) -> Policy:
        return self.inner.policy

    def analyze_shell(self, command: str, /) -> ShellAnalysis:
        return self.inner.analyze_shell(command)

    def evaluate(self, call: ToolCall) -> Evaluation:
        return self.judged(call, self.inner.evaluate)

    def explain(self, call: ToolCall) -> Evaluation:
        return self.judged(call, self.inner.explain)

    def over(self, policy: Policy) -> Judge:
        return self.around(self.inner.over(policy))

    @abstractmethod
    def judged(self, call: ToolCall, inner: Callable[[ToolCall], Evaluation]) -> Evaluation:
        """This wrapper's answer, given how the inner gate answers."""

    @abstractmethod
    def around(self, inner: Judge) -> GateWrapper:
        """The same wrapper around ``inner``."""
