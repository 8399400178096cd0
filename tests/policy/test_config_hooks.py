"""A write that adds a key naming code an editor's extension loads (pylint's init-hook,
mypy's plugins, TypeScript's plugins) asks; everyday editing of those files stays a write."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

A, Q = Decision.ALLOW, Decision.ASK


@pytest.mark.parametrize(
    ("name", "before", "args", "decision"),
    [
        ("pyproject.toml", None, {"content": '[tool.pylint.main]\ninit-hook = "import os"\n'}, Q),
        ("pyproject.toml", None, {"content": '[tool.mypy]\nplugins = ["evil"]\n'}, Q),
        ("setup.cfg", None, {"content": "[pylint]\nload-plugins = evil\n"}, Q),
        ("tsconfig.json", None, {"content": '{"compilerOptions": {"plugins": [{"name": "evil"}]}}'}, Q),
        ("pyproject.toml", None, {"content": '[project]\nname = "x"\n'}, A),
        ("tsconfig.json", None, {"content": '{"compilerOptions": {"strict": true}}'}, A),
        # an edit beside a hook already there does not ask; one adding a hook does
        ("pyproject.toml", '[tool.mypy]\nplugins = ["p"]\n[project]\nname = "x"\n',
         {"old_string": 'name = "x"', "new_string": 'name = "y"'}, A),
        ("pyproject.toml", '[project]\nname = "x"\n',
         {"old_string": 'name = "x"', "new_string": 'name = "x"\n[tool.mypy]\nplugins = ["q"]'}, Q),
        # an edit that cannot apply here asks when its new text names a hook
        ("pyproject.toml", '[project]\nname = "x"\n', {"old_string": "", "new_string": 'init-hook = "x"'}, Q),
    ],
)  # fmt: skip
def test_a_write_that_adds_code_an_editor_loads_asks(
    workspace: Path,
    make_gate: Callable[..., Gate],
    call: Callable[..., ToolCall],
    name: str,
    before: str | None,
    args: dict[str, str],
    decision: Decision,
) -> None:
    if before is not None:
        (workspace / name).write_text(before)
    family = "write" if "content" in args else "edit"
    evaluation = make_gate().evaluate(call(family, path=name, **args))
    rules = [r.rule for r in evaluation.reasons]
    assert (evaluation.decision, "hardline.agent-config" in rules) == (decision, decision is Q)
