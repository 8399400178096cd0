"""Issue 31, the deny-class calls the last blind suite found only asked: a credential named by
the literal end of a run-time path, a secret printer under another name or unknown to the
tables, a metadata endpoint spelled in an argument, a destruction with no way back. Each is
denied firmly; the everyday calls beside them keep their decision."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.policy.metadata_words import metadata_word

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY

DENIED = [
    ('cat "${HOME%/}/.netrc"', "hardline.credentials"),
    ("cat $PWD/../home/.pgpass", "hardline.credentials"),
    ('cat "$X/.aws/credentials"', "hardline.credentials"),
    ('echo x > "$D/.ssh/authorized_keys"', "hardline.credentials"),
    ("python3 -m pip config list", "hardline.credentials"),
    ("mysql --print-defaults", "hardline.credentials"),
    ("my_print_defaults client", "hardline.credentials"),
    ("docker-credential-desktop list", "hardline.credentials"),
    ("pip download --index-url http://169.254.169.254/ x", "hardline.metadata"),
    ("aws s3 ls --endpoint-url http://169.254.169.254", "hardline.metadata"),
    ("ssh -o ProxyCommand='nc 169.254.169.254 80' x", "hardline.metadata"),
    ("mytool --host 0xA9FEA9FE", "hardline.metadata"),
    ("crontab -r", "hardline.destructive"),
    ("git diff --no-index ~/.ssh/id_rsa /dev/null", "hardline.credentials"),
    ("curl -s file:///proc/self/environ", "hardline.credentials"),
    ("curl -s file://localhost/proc/1/environ", "hardline.credentials"),
    ("ln ~/.ssh/id_rsa k && cat k", "hardline.credentials"),
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_a_credential_read_or_a_catastrophe_is_denied_not_asked(
    make_gate: GateFactory, call: Call, command: str, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (D, rule)


KEPT = [
    ('cat "$X/README.md"', Q),
    ("python3 -m pip list", Q),
    ("mysql -e 'select 1'", Q),
    ("grep 169.254.169.254 README.md", A),
    ("crontab -l", A),
    ("crontab -ri", Q),
]


@pytest.mark.parametrize(("command", "decision"), KEPT)
def test_the_calls_beside_them_keep_their_decision(
    make_gate: GateFactory, call: Call, workspace: Path, command: str, decision: Decision
) -> None:
    assert make_gate().evaluate(call("shell", command=command)).decision is decision


_OCTET = st.integers(min_value=0, max_value=255)


@given(_OCTET, _OCTET, _OCTET, _OCTET)
def test_only_a_metadata_address_is_a_metadata_word(a: int, b: int, c: int, d: int) -> None:
    address = f"{a}.{b}.{c}.{d}"
    metadata = address in {"169.254.169.254", "169.254.170.2", "169.254.170.23", "169.254.0.23",
                           "100.100.100.200", "192.0.0.192", "168.63.129.16"}  # fmt: skip
    assert (metadata_word(("x", f"--url=http://{address}:80/")) == address) is metadata
