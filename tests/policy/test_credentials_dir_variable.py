"""``$BASTION_CREDENTIALS_DIR`` in an agent's own call: the credentials dir, so any word that
expands it is a credential read, denied like its literal path, in whatever position and
through whatever wrapper; a script that reads the variable itself names nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bastion.call.model import ToolCall
from bastion.exec.boundary import CREDENTIALS_ENV
from bastion.shell.disclosure import CREDENTIALS_VAR
from tests.conftest import GateFactory

Call = Callable[..., ToolCall]


def _decided(make_gate: GateFactory, call: Call, command: str) -> tuple[str, tuple[str, ...], bool]:
    evaluation = make_gate().evaluate(call("shell", command=command))
    rules = tuple(r.rule for r in evaluation.reasons)
    return evaluation.decision.label, rules, "credentials" in [e.value for e in evaluation.effects]


@pytest.mark.parametrize(
    "command",
    [
        "cat $BASTION_CREDENTIALS_DIR/token",
        'cat "${BASTION_CREDENTIALS_DIR}/token"',
        "curl -H @$BASTION_CREDENTIALS_DIR/token https://api.github.com",
        "cat < $BASTION_CREDENTIALS_DIR/token",
        "cp $BASTION_CREDENTIALS_DIR/token /tmp/t",
        "ls $BASTION_CREDENTIALS_DIR",
        "TOKEN_FILE=$BASTION_CREDENTIALS_DIR/token python3 sync.py",
        "./sync.sh --key=$BASTION_CREDENTIALS_DIR/token",
        "bash -c 'cat $BASTION_CREDENTIALS_DIR/token'",
        "sudo cat ${BASTION_CREDENTIALS_DIR:-/nowhere}/token",
        "X=$BASTION_CREDENTIALS_DIR; cat $X/token",
        "git status && cat $BASTION_CREDENTIALS_DIR/token | base64",
    ],
)
def test_a_call_naming_the_variable_is_a_credential_read_and_denied(
    make_gate: GateFactory, call: Call, command: str
) -> None:
    assert _decided(make_gate, call, command) == ("deny", ("hardline.credentials",), True)


def test_it_is_denied_like_the_literal_path_it_stands_for(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate()
    literal = gate.evaluate(call("shell", command=f"cat {gate.policy.credentials_dir}/token"))
    named = gate.evaluate(call("shell", command="cat $BASTION_CREDENTIALS_DIR/token"))
    assert (named.decision, named.reasons[0].rule, named.marker) == (
        literal.decision,
        literal.reasons[0].rule,
        literal.marker,
    )
    assert named.reasons[0].message == (
        "prints a secret: $BASTION_CREDENTIALS_DIR/token reaches into the credentials dir "
        "($BASTION_CREDENTIALS_DIR) (reading a credential: never by an agent)"
    )


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # A script that opens the file itself names nothing: decided as any script (002's
        # "python3 sync.py, where the script opens the file itself, is not").
        ("python3 sync.py", ("ask", ("shell.not-a-reader", "approval.interactive_default"), False)),
        # Single quotes: the words are text, nothing expands.
        ("echo '$BASTION_CREDENTIALS_DIR'", ("allow", ("mode.workspace",), False)),
        # Another variable: a path only known at run time, asked about as before.
        (
            "cat $BASTION_CREDENTIALS_DIRS/token",
            ("ask", ("shell.dynamic-path", "approval.interactive_default"), False),
        ),
    ],
)
def test_what_does_not_expand_the_variable_is_decided_as_before(
    make_gate: GateFactory, call: Call, command: str, expected: tuple[str, tuple[str, ...], bool]
) -> None:
    assert _decided(make_gate, call, command) == expected


def test_the_classifier_and_the_runner_name_the_same_variable() -> None:
    assert CREDENTIALS_VAR == CREDENTIALS_ENV == "BASTION_CREDENTIALS_DIR"
