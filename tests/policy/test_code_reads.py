"""Issue 31: the code tool's source that names a credential file (by name, or a workspace
hard link to one) or prints the environment is a credential read, denied; other code is
left to the sandbox as before."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

Call = Callable[..., ToolCall]


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate(sandboxed=True)


CRED = {"hardline.credentials"}
HOME_CRED = {"hardline.credentials", "paths.deny_read"}  # ~/.ssh is also outside every root
DENIED = [
    ("bash", "cat ~/.ssh/id_rsa", HOME_CRED),
    ("bash", "f=~/.ssh/id_rsa; base64 $f", HOME_CRED),
    ("bash", "cat notes.txt", CRED),
    ("bash", "declare -x", CRED),
    ("python", "print(open('{home}/.ssh/id_rsa').read())", HOME_CRED),
    ("python", "print(open('notes.txt').read())", CRED),
    ("node", "console.log(require('fs').readFileSync(\"notes.txt\", 'utf8'))", CRED),
]


@pytest.mark.parametrize(("language", "source", "rules"), DENIED)
def test_code_naming_a_credential_file_or_printing_the_environment_is_denied(
    gate: Gate, call: Call, home: Path, workspace: Path, language: str, source: str, rules: set[str]
) -> None:
    if "notes.txt" in source:  # only then the workspace holds the link (a link alone is decided too)
        os.link(home / ".ssh" / "id_rsa", workspace / "notes.txt")
    evaluation = gate.evaluate(call("code", language=language, source=source.replace("{home}", str(home))))
    denied = {r.rule for r in evaluation.reasons if r.decision is Decision.DENY}
    assert (evaluation.decision, denied) == (Decision.DENY, rules)


ALLOWED = [
    ("python", "print(1)"),
    ("python", "print(open('README.md').read())"),
    ("python", "print('a.b', \"x/y\")"),
    ("bash", "echo hi > out.txt; ls; cat README.md"),
    ("node", "console.log(process.env.HOME)"),
]


@pytest.mark.parametrize(("language", "source"), ALLOWED)
def test_other_code_is_left_to_the_sandbox(gate: Gate, call: Call, language: str, source: str) -> None:
    assert gate.evaluate(call("code", language=language, source=source)).decision is Decision.ALLOW
