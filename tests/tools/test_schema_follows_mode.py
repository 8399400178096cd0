"""The schema follows the mode: the model is shown only the tools it may use."""

from __future__ import annotations

import pytest

from bastion import Gate, ToolCall
from bastion.call.families import Family
from bastion.policy.enabled import TOOL_NAMES
from bastion.tools import TOOL_CLASSES
from bastion.tools.base import hints
from bastion.tools.catalog import UNKNOWN_TOOL_RULE, permitted, unknown_tool
from bastion.tools.files import ReadTool
from tests.conftest import PolicyFactory
from tests.tools.conftest import ToolsFactory

EVERY = [
    "read", "write", "edit", "multi_edit", "list", "glob", "grep", "exec", "code", "fetch",
    "install", "detect_tools", "session", "job",
]  # fmt: skip
READERS = ["read", "list", "glob", "grep", "fetch", "detect_tools"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('mode = "workspace"\n', EVERY),
        ('mode = "full-access"\n', EVERY),
        ('mode = "read-only"\n', READERS),
        ('[ceiling]\napproval = "ask_for_risky"\nfilesystem = "read_only"\nnetwork = "allowed"\n', READERS),
    ],
)
def test_each_mode_lists_only_what_it_permits(make_tools: ToolsFactory, text: str, names: list[str]) -> None:
    assert list(make_tools(text, sandbox=True)) == names


def test_read_only_never_shows_a_tool_that_writes_or_runs(make_tools: ToolsFactory) -> None:
    shown = make_tools('mode = "read-only"\n', sandbox=True).values()
    assert all(t.annotations["readOnlyHint"] for t in shown)
    assert not {t.family for t in shown} & {
        Family.WRITE,
        Family.EDIT,
        Family.SHELL,
        Family.CODE,
        Family.INSTALL,
    }


def test_the_enabled_list_is_all_that_is_offered(make_tools: ToolsFactory) -> None:
    assert list(make_tools('enabled = ["grep", "read", "multi_edit"]\n', sandbox=True)) == [
        "read",
        "multi_edit",
        "grep",
    ]


def test_enabled_cannot_bring_a_writer_back_in_read_only(make_tools: ToolsFactory) -> None:
    text = 'mode = "read-only"\nenabled = ["read", "write", "exec", "install"]\n'
    assert list(make_tools(text, sandbox=True)) == ["read"]


def test_a_new_tool_not_marked_read_only_is_hidden_in_read_only_whatever_its_family(
    make_policy: PolicyFactory,
) -> None:
    class Peek(ReadTool):
        name = "read"
        annotations = hints(read_only=False, destructive=False, idempotent=True, open_world=False)

    assert (permitted(make_policy('mode = "read-only"\n'), Peek), permitted(make_policy(), Peek)) == (
        False,
        True,
    )


def test_a_call_to_a_tool_not_offered_is_denied_with_the_engine_s_unknown_tool_rule(
    make_policy: PolicyFactory,
) -> None:
    engine = Gate(make_policy()).evaluate(ToolCall("teleport", {}))
    refusal = unknown_tool("write", ["read", "grep"])
    assert engine.reasons[0].rule == UNKNOWN_TOOL_RULE
    assert refusal.to_json() == {
        "decision": "deny",
        "reasons": [
            {
                "rule": UNKNOWN_TOOL_RULE,
                "source": "built-in",
                "matched": "write",
                "message": "unknown tool 'write': not offered here (tools: grep, read)",
                "decision": "deny",
            }
        ],
        "effects": list(engine.to_json()["effects"]),
        "marker": engine.marker,
    }


def test_every_catalog_tool_is_a_name_a_policy_may_enable() -> None:
    assert [cls.name for cls in TOOL_CLASSES if cls.name not in TOOL_NAMES] == []
