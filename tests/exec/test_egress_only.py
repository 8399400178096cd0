"""A contained run's proxy reaches only the hosts its profile names (``exec.hosts-only``):
a bare host at any port, a host with a port (an ssh remote, ``github.com:22``) at that port."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bastion import ToolCall
from bastion.exec.egress.only import HostsGate, admits
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision
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
