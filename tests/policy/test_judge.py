"""Gate wrappers wrap a gate: every way of asking one (``evaluate``, ``explain``, and a
delegated child's ``over``) goes through the wrapper's check, never around it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bastion.call.model import ToolCall
from bastion.exec.egress.decide import ProxyGate
from bastion.exec.egress.net import PinnedResolver
from bastion.policy.compiled import Policy
from bastion.policy.engine import Gate
from bastion.policy.judge import GateWrapper
from bastion.policy.network import StaticResolver
from bastion.policy.packages import MANAGERS
from bastion.tools.egress_run import HostsGate
from bastion.tools.install import RegistryGate

FULL = 'mode = "full-access"\n[network]\ndeny_hosts = ["169.254.169.254"]\n'
OFF_LIMITS = ToolCall("fetch", {"url": "https://elsewhere.example:443/"}, cwd="/", interactive=False)

Wrap = Callable[[Gate], GateWrapper]
WRAPPERS: dict[str, Wrap] = {
    "hosts": lambda inner: HostsGate(inner, ("pypi.org",)),
    "registry": lambda inner: RegistryGate(inner, MANAGERS["pip"]),
    "proxy": lambda inner: ProxyGate(
        inner, PinnedResolver(StaticResolver({"elsewhere.example": ["169.254.169.254"]})), ()
    ),
}


@pytest.mark.parametrize("name", sorted(WRAPPERS))
def test_a_wrapper_refuses_the_same_call_however_it_is_asked(
    name: str, make_policy: Callable[..., Policy]
) -> None:
    policy = make_policy(FULL)
    wrapped = WRAPPERS[name](Gate(policy, resolver=StaticResolver({})))
    narrower = make_policy('mode = "workspace"\n')

    answers = [
        wrapped.evaluate(OFF_LIMITS).decision.label,
        wrapped.explain(OFF_LIMITS).decision.label,
        wrapped.over(narrower).evaluate(OFF_LIMITS).decision.label,
        wrapped.over(narrower).explain(OFF_LIMITS).decision.label,
    ]

    assert answers == ["deny", "deny", "deny", "deny"]
    assert Gate(policy, resolver=StaticResolver({})).evaluate(OFF_LIMITS).decision.label == "allow"


def test_a_wrapper_over_a_narrower_policy_decides_by_that_policy(make_policy: Callable[..., Policy]) -> None:
    wrapped = HostsGate(Gate(make_policy(FULL)), ("pypi.org",))

    child = wrapped.over(make_policy('mode = "read-only"\n'))

    assert (type(child), child.policy.mode.value) == (HostsGate, "read-only")
