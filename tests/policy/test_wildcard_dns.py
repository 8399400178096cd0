"""A wildcard-DNS name is the address it spells (#31, suite D: ``169.254.169.254.nip.io``):
judged as that address offline, in a URL or in any argument, in every spelling the services
document; a name that spells no address stays a name."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.policy.wildcard_dns import WILDCARD_DOMAINS, embedded_address

A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@given(st.ip_addresses(v=4), st.sampled_from(WILDCARD_DOMAINS), st.sampled_from(["", "app.", "a.b."]))
def test_every_spelling_of_an_ipv4_address_is_that_address(
    address: ipaddress.IPv4Address, domain: str, prefix: str
) -> None:
    dashed = str(address).replace(".", "-")
    spellings = (f"{prefix}{address}.{domain}", f"{prefix}app-{dashed}.{domain}", f"{dashed}.{domain}",
                 f"{int(address):08x}.{domain}", f"{str(address).upper()}.{domain.upper()}.")  # fmt: skip
    assert {s: embedded_address(s) for s in spellings} == dict.fromkeys(spellings, address)


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("--1.sslip.io", "::1"),
        ("2a01-4f8-c17-b8f--2.sslip.io", "2a01:4f8:c17:b8f::2"),
        ("www.localtest.me", "127.0.0.1"),
        ("lvh.me", "127.0.0.1"),
        ("nip.io", None),
        ("my-app.nip.io", None),
        ("999.1.1.1.nip.io", None),
        ("169.254.169.254.example.com", None),
        ("notnip.io", None),
    ],
)
def test_a_name_is_an_address_only_when_the_service_would_answer_with_one(
    host: str, address: str | None
) -> None:
    assert embedded_address(host) == (None if address is None else ipaddress.ip_address(address))


CALLS = [
    (("fetch", {"url": "http://169.254.169.254.nip.io/latest/meta-data/"}), D, "hardline.metadata"),
    (("fetch", {"url": "http://app-169-254-169-254.sslip.io/"}), D, "hardline.metadata"),
    (("shell", {"command": "curl -s http://a9fea9fe.nip.io/latest/"}), D, "hardline.metadata"),
    (
        ("shell", {"command": "pip download --index-url http://169.254.170.2.xip.io/ x"}),
        D,
        "hardline.metadata",
    ),
    (("fetch", {"url": "http://10.0.0.1.nip.io/"}), D, "network.private"),
    (("fetch", {"url": "http://api.localtest.me:8080/"}), D, "network.private"),
    (("fetch", {"url": "http://my-app.nip.io/"}), Q, "network.unlisted"),
]


@pytest.mark.parametrize(("args", "decision", "rule"), CALLS)
def test_a_call_to_a_wildcard_dns_name_is_judged_as_its_address(
    make_gate: Callable[..., Gate],
    call: Callable[..., ToolCall],
    args: tuple[str, dict[str, str]],
    decision: Decision,
    rule: str,
) -> None:
    family, given_args = args
    evaluation = make_gate().evaluate(call(family, **given_args))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (decision, rule)
