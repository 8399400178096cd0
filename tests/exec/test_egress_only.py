"""A contained run's proxy reaches only the hosts its profile names (``exec.hosts-only``):
a bare host at any port, a host with a port (an ssh remote, ``github.com:22``) at that port."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bastion import ToolCall
from bastion.exec.egress.only import Approved, HostsGate, admits
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.engine import Gate


@pytest.mark.parametrize(
    ("hosts", "host", "port", "admitted"),
    [
        (("github.com",), "github.com", 443, True),
        (("github.com",), "github.com", 22, True),
        (("github.com",), "api.github.com", 443, False),
        (("github.com:22",), "github.com", 22, True),
        (("github.com:22",), "github.com", 443, False),
        (("github.com:22",), "evil.example", 22, False),
        (("[::1]:22",), "::1", 22, True),
        (("[::1]:22",), "::1", 2222, False),
        ((), "github.com", 443, False),
    ],
)
def test_a_profiles_hosts_admit_exactly_their_host_and_port(
    hosts: tuple[str, ...], host: str, port: int, admitted: bool
) -> None:
    assert admits(hosts, host, port) is admitted


def test_a_connection_to_another_port_of_an_ssh_host_is_refused_before_the_policy_is_asked(
    make_policy: Callable[..., Policy],
) -> None:
    gate = HostsGate(Gate(make_policy('[network]\nallow_hosts = ["github.com"]\n')), ("github.com:22",))
    call = ToolCall(tool="fetch", args={"url": "https://github.com:443/", "method": "CONNECT"}, cwd="/")
    ssh = ToolCall(tool="fetch", args={"url": "https://github.com:22/", "method": "CONNECT"}, cwd="/")
    refused, allowed = gate.evaluate(call), gate.evaluate(ssh)
    assert (refused.decision, refused.reasons[0].rule, refused.reasons[0].message) == (
        Decision.DENY,
        "exec.hosts-only",
        "this run may reach only the hosts its decision saw (github.com:22), not github.com",
    )
    assert allowed.decision is Decision.ALLOW


# -- a run a person approved (``--approval``, checked before it starts) ---------------------

APPROVED = Approved("AbCdEfGhIjKlMnOpQrStUv", ("github.com",))


def _connect(url: str) -> ToolCall:
    """A connection as the proxy of ``bastion sandbox run`` asks about it (a person may be asked)."""
    return ToolCall(tool="fetch", args={"url": url, "method": "CONNECT"}, cwd="/", interactive=True)


def test_an_approved_runs_host_is_allowed_where_the_policy_would_ask_naming_the_request(
    make_policy: Callable[..., Policy],
) -> None:
    policy = make_policy("")
    asked = HostsGate(Gate(policy), ("github.com",)).evaluate(_connect("https://github.com:443/"))
    allowed = HostsGate(Gate(policy), ("github.com",), APPROVED).evaluate(_connect("https://github.com:443/"))
    assert asked.decision is Decision.ASK
    assert (allowed.decision, allowed.reasons[0], allowed.reasons[1:]) == (
        Decision.ALLOW,
        Reason(
            Decision.ALLOW,
            "exec.approved-host",
            "request AbCdEfGhIjKlMnOpQrStUv",
            "github.com",
            "a person approved request AbCdEfGhIjKlMnOpQrStUv, whose profile names github.com: not asked again",
        ),
        asked.reasons,
    )


def test_a_host_the_run_names_but_the_approved_request_did_not_still_asks(
    make_policy: Callable[..., Policy],
) -> None:
    # The run's own --host words list more than the request's profile named: they prove nothing.
    gate = HostsGate(Gate(make_policy("")), ("github.com", "evil.example"), APPROVED)
    assert [
        gate.evaluate(_connect(u)).decision for u in ("https://evil.example:443/", "https://github.com:443/")
    ] == [
        Decision.ASK,
        Decision.ALLOW,
    ]


def test_a_host_outside_the_runs_profile_is_refused_even_when_the_request_named_it(
    make_policy: Callable[..., Policy],
) -> None:
    gate = HostsGate(Gate(make_policy("")), ("gitlab.com",), APPROVED)
    refused = gate.evaluate(_connect("https://github.com:443/"))
    assert (refused.decision, refused.reasons[0].rule) == (Decision.DENY, "exec.hosts-only")


def test_an_approval_never_turns_the_policys_denial_into_an_allow(make_policy: Callable[..., Policy]) -> None:
    gate = HostsGate(Gate(make_policy('[network]\ndeny_hosts = ["github.com"]\n')), ("github.com",), APPROVED)
    denied = gate.evaluate(_connect("https://github.com:443/"))
    assert (denied.decision, [r.rule for r in denied.reasons if r.rule == "exec.approved-host"]) == (
        Decision.DENY,
        [],
    )


def test_an_approved_ssh_host_admits_its_port_only(make_policy: Callable[..., Policy]) -> None:
    ssh = Approved("AbCdEfGhIjKlMnOpQrStUv", ("github.com:22",))
    gate = HostsGate(Gate(make_policy("")), ("github.com",), ssh)
    assert [
        gate.evaluate(_connect(u)).decision for u in ("https://github.com:22/", "https://github.com:443/")
    ] == [
        Decision.ALLOW,
        Decision.ASK,
    ]


def test_a_gate_wrapped_again_keeps_its_approval(make_policy: Callable[..., Policy]) -> None:
    gate = HostsGate(Gate(make_policy("")), ("github.com",), APPROVED)
    again = gate.around(Gate(make_policy("")))
    assert (again.approved, again.evaluate(_connect("https://github.com:443/")).decision) == (
        APPROVED,
        Decision.ALLOW,
    )
