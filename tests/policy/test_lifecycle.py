"""A write or edit that adds or changes a package.json lifecycle script asks; everyday
editing of package.json (dependencies, other scripts) stays a plain write."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.policy.lifecycle import LIFECYCLE_SCRIPTS

PACKAGE = {
    "name": "web",
    "version": "1.0.0",
    "scripts": {"test": "node test.js", "postinstall": "node setup.js"},
    "dependencies": {"left-pad": "^1.3.0"},
}


@pytest.fixture
def package(workspace: Path) -> Path:
    path = workspace / "package.json"
    path.write_text(json.dumps(PACKAGE, indent=2) + "\n")
    return path


def _edit(old: str, new: str) -> dict[str, object]:
    return {"path": "package.json", "old_string": old, "new_string": new}


@pytest.mark.parametrize(
    ("edit", "decision"),
    [
        (_edit('"test": "node test.js"', '"test": "node test.js", "preinstall": "sh x.sh"'), Decision.ASK),
        (_edit('"postinstall": "node setup.js"', '"postinstall": "curl x | sh"'), Decision.ASK),
        (_edit('"test": "node test.js"', '"test": "node test.js", "prepare": "sh x.sh"'), Decision.ASK),
        (_edit('"left-pad": "^1.3.0"', '"left-pad": "^1.3.0", "lodash": "^4.17.21"'), Decision.ALLOW),
        (_edit('"test": "node test.js"', '"test": "vitest", "lint": "eslint ."'), Decision.ALLOW),
        (_edit('"postinstall": "node setup.js"', '"build": "tsc"'), Decision.ALLOW),  # removed
        (_edit('"version": "1.0.0"', '"version": "1.0.1"'), Decision.ALLOW),
    ],
)
def test_an_edit_asks_only_when_it_adds_or_changes_a_lifecycle_script(
    package: Path,
    make_gate: Callable[..., Gate],
    call: Callable[..., ToolCall],
    edit: dict[str, str],
    decision: Decision,
) -> None:
    assert make_gate().evaluate(call("edit", **edit)).decision is decision


def test_an_edit_that_moves_scripts_under_the_scripts_key_asks(
    workspace: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    (workspace / "package.json").write_text('{"name": "w", "scripts-off": {"postinstall": "sh x.sh"}}\n')

    decision = make_gate().evaluate(call("edit", **_edit('"scripts-off"', '"scripts"'))).decision

    assert decision is Decision.ASK


def test_writing_a_new_package_json_with_a_lifecycle_script_asks_and_without_one_does_not(
    workspace: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    gate = make_gate()
    with_hook = json.dumps({"name": "a", "scripts": {"install": "node-gyp rebuild"}})
    without = json.dumps({"name": "a", "scripts": {"test": "jest"}, "dependencies": {"x": "1"}})

    decisions = [
        gate.evaluate(call("write", path="a/package.json", content=with_hook)).decision,
        gate.evaluate(call("write", path="b/package.json", content=without)).decision,
    ]

    assert decisions == [Decision.ASK, Decision.ALLOW]


def test_rewriting_package_json_keeping_its_lifecycle_script_does_not_ask(
    package: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    content = json.dumps({**PACKAGE, "dependencies": {"left-pad": "^1.3.0", "zod": "^3"}}, indent=2)

    assert (
        make_gate().evaluate(call("write", path="package.json", content=content)).decision is Decision.ALLOW
    )


def test_a_package_json_that_does_not_parse_and_names_a_lifecycle_script_asks(
    package: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    content = '{"scripts": {"postinstall": "sh x.sh"},}'

    assert make_gate().evaluate(call("write", path="package.json", content=content)).decision is Decision.ASK


def test_a_lifecycle_key_spelled_with_a_json_escape_is_still_seen(
    package: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    edit = _edit('"test": "node test.js"', '"test": "node test.js", "pre\\u0069nstall": "sh x.sh"')

    assert make_gate().evaluate(call("edit", **edit)).decision is Decision.ASK


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    scripts=st.dictionaries(
        st.sampled_from(sorted(LIFECYCLE_SCRIPTS | {"test", "build", "lint"})), st.text(max_size=8)
    ),
    noise=st.text(max_size=30),
)
def test_any_written_package_json_asks_exactly_when_it_holds_a_lifecycle_script(
    workspace: Path,
    make_gate: Callable[..., Gate],
    call: Callable[..., ToolCall],
    scripts: dict[str, str],
    noise: str,
) -> None:
    gate = make_gate()
    content = json.dumps({"name": noise, "scripts": scripts})
    expected = Decision.ASK if set(scripts) & LIFECYCLE_SCRIPTS else Decision.ALLOW

    assert gate.evaluate(call("write", path="fresh/package.json", content=content)).decision is expected
