"""The four modes (003's tiers read-only / ask-before-edit / full, and workspace), the
``shell_in_read_only`` key, and the rule numbers an untrusted layer's drops keep."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Gate, ToolCall
from bastion.policy.loader import compile_layers
from tests.conftest import ignored_warning, policy_layers

Call = Callable[..., ToolCall]
GateFactory = Callable[..., Gate]


def summary(gate: Gate, call: ToolCall) -> tuple[str, list[str]]:
    evaluation = gate.evaluate(call)
    return evaluation.decision.label, [r.rule for r in evaluation.reasons]


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("read", {"path": "README.md"}, ("allow", ["paths.roots"])),
        ("shell", {"command": "git status"}, ("allow", ["mode.ask-before-edit"])),
        ("shell", {"command": "grep -r hi src"}, ("allow", ["mode.ask-before-edit"])),
        ("write", {"path": "src/new.py"}, ("ask", ["mode.ask-before-edit"])),
        ("edit", {"path": "src/app.py"}, ("ask", ["mode.ask-before-edit"])),
        ("shell", {"command": "echo hi > notes.txt"}, ("ask", ["mode.ask-before-edit"])),
        ("db", {"operation": "write", "target": "facts"}, ("ask", ["mode.ask-before-edit"])),
        ("write", {"path": "/etc/hosts"}, ("deny", ["hardline.system"])),
    ],
)
def test_ask_before_edit_runs_reads_and_asks_before_every_write(
    make_gate: GateFactory,
    call: Call,
    workspace: Path,
    tool: str,
    args: dict[str, str],
    expected: tuple[str, list[str]],
) -> None:
    gate = make_gate('mode = "ask-before-edit"')
    absolute = {
        k: str(workspace / v) if k == "path" and not v.startswith("/") else v for k, v in args.items()
    }
    assert summary(gate, call(tool, **absolute)) == expected


def test_an_allow_rule_does_not_lift_the_ask_of_ask_before_edit(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate('mode = "ask-before-edit"\n[commands]\nallow = ["touch *"]\n')
    assert summary(gate, call("shell", command="touch new.txt")) == ("ask", ["mode.ask-before-edit"])


def test_explain_says_ask_before_edit_and_why(make_gate: GateFactory, call: Call, workspace: Path) -> None:
    evaluation = make_gate('mode = "ask-before-edit"').explain(call("write", path=str(workspace / "x")))
    assert evaluation.trace[0].startswith("policy: mode ask-before-edit (")
    assert "cap: mode.ask-before-edit: ask-before-edit mode: reads run, every edit asks (write)" in (
        evaluation.trace
    )


def test_shell_in_read_only_false_a_person_sets_refuses_every_shell_command(
    make_gate: GateFactory, call: Call
) -> None:
    ours = make_gate('mode = "read-only"')
    theirs = make_gate('mode = "read-only"\nshell_in_read_only = false')
    assert summary(ours, call("shell", command="git status"))[0] == "allow"
    assert summary(theirs, call("shell", command="git status")) == ("deny", ["mode.read-only"])
    evaluation = theirs.evaluate(call("shell", command="ls"))
    assert (evaluation.marker, evaluation.reasons[0].message) == (
        "[policy-blocked]",
        "a shell command (shell_in_read_only = false) is not allowed in read-only mode",
    )
    # outside read-only it changes nothing
    assert summary(make_gate("shell_in_read_only = false"), call("shell", command="ls"))[0] == "allow"


def test_an_untrusted_layer_may_turn_read_only_shell_off_but_never_on(
    tmp_path: Path, env: dict[str, str]
) -> None:
    on = compile_layers(
        policy_layers(tmp_path, ("shell_in_read_only = false", True), ("shell_in_read_only = true", False)),
        cwd=str(tmp_path),
        env=env,
    )
    assert on.shell_in_read_only is False
    assert on.warnings == (ignored_warning(tmp_path, 2, "shell_in_read_only = true"),)
    off = compile_layers(
        policy_layers(tmp_path, ("", True), ("shell_in_read_only = false", False)), cwd=str(tmp_path), env=env
    )
    assert (off.shell_in_read_only, off.warnings) == (False, ())


def test_an_untrusted_layer_may_choose_ask_before_edit_over_workspace_but_not_the_reverse(
    tmp_path: Path, env: dict[str, str]
) -> None:
    tighter = compile_layers(
        policy_layers(tmp_path, ("", True), ('mode = "ask-before-edit"', False)), cwd=str(tmp_path), env=env
    )
    looser = compile_layers(
        policy_layers(tmp_path, ('mode = "ask-before-edit"', True), ('mode = "workspace"', False)),
        cwd=str(tmp_path),
        env=env,
    )
    assert (tighter.mode.value, tighter.warnings) == ("ask-before-edit", ())
    assert (looser.mode.value, looser.warnings) == (
        "ask-before-edit",
        (ignored_warning(tmp_path, 2, "mode = 'workspace'"),),
    )


UNTRUSTED_RULES = """
[[rule]]
tool = "shell"
pattern = "make *"
action = "allow"

[[rule]]
tool = "shell"
pattern = "git push *"
action = "deny"

[[rule]]
tool = "read"
pattern = "**/*.txt"
action = "allow"
"""


def test_each_dropped_rule_keeps_its_own_number_and_kept_ones_are_not_renumbered(
    tmp_path: Path, env: dict[str, str]
) -> None:
    layered = compile_layers(
        policy_layers(tmp_path, ("", True), (UNTRUSTED_RULES, False)), cwd=str(tmp_path), env=env
    )
    alone = compile_layers(policy_layers(tmp_path, (UNTRUSTED_RULES, True)), cwd=str(tmp_path), env=env)
    assert layered.warnings == (
        ignored_warning(tmp_path, 2, "rule[1] (action = 'allow')"),
        ignored_warning(tmp_path, 2, "rule[3] (action = 'allow')"),
    )
    assert [(r.rule_id, r.pattern) for r in layered.rules] == [("rule[2]", "git push *")]
    assert [(r.rule_id, r.pattern) for r in alone.rules] == [
        ("rule[1]", "make *"),
        ("rule[2]", "git push *"),
        ("rule[3]", "**/*.txt"),
    ]
