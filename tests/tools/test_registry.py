"""Which tools are offered, with what schema and hints; the public API of bastion.tools."""

from __future__ import annotations

import pytest

import bastion.tools
import bastion.tools.catalog as catalog
from bastion.configuration import Configuration
from bastion.exec import BubblewrapRunner, SandboxUnavailable
from bastion.tools import registry
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import require_bwrap
from tests.tools.conftest import ToolsFactory

ALL = [
    "read", "write", "edit", "multi_edit", "list", "glob", "grep", "exec", "code", "fetch",
    "install", "detect_tools", "session", "job",
]  # fmt: skip


def test_every_tool_is_offered_by_default_with_a_sandbox(make_tools: ToolsFactory) -> None:
    assert list(make_tools(sandbox=True)) == ALL


def test_a_tool_denied_as_a_whole_is_absent_from_the_list(make_tools: ToolsFactory) -> None:
    text = '[[rule]]\ntool = "fetch"\naction = "deny"\n[[rule]]\ntool = "write"\naction = "deny"\n'
    assert list(make_tools(text, sandbox=True)) == [n for n in ALL if n not in ("fetch", "write")]


def test_a_deny_with_a_pattern_leaves_the_tool_offered(make_tools: ToolsFactory) -> None:
    text = '[[rule]]\ntool = "fetch"\npattern = "evil.example"\naction = "deny"\n'
    assert "fetch" in make_tools(text)


def test_a_later_rule_for_the_same_tool_keeps_it_offered(make_tools: ToolsFactory) -> None:
    text = (
        '[[rule]]\ntool = "fetch"\naction = "deny"\n'
        '[[rule]]\ntool = "fetch"\npattern = "pypi.org"\naction = "allow"\n'
    )
    assert "fetch" in make_tools(text)


def _no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(env: object) -> None:
        raise SandboxUnavailable("bubblewrap ('bwrap') is not installed")

    monkeypatch.setattr(catalog, "select_runner", unavailable)


def test_without_a_usable_runner_exec_code_and_install_are_not_offered(
    make_policy: PolicyFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_sandbox(monkeypatch)
    names = [t.name for t in registry(Configuration(make_policy()), environ={})]
    assert names == ["read", "write", "edit", "multi_edit", "list", "glob", "grep", "fetch", "detect_tools"]


def test_require_sandbox_turns_a_missing_runner_into_an_error(
    make_policy: PolicyFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_sandbox(monkeypatch)
    with pytest.raises(SandboxUnavailable):
        registry(Configuration(make_policy()), environ={"BASTION_REQUIRE_SANDBOX": "1"})


def test_with_bubblewrap_installed_the_runner_is_found_and_used(
    make_policy: PolicyFactory,
) -> None:
    require_bwrap()
    tools = {t.name: t for t in registry(Configuration(make_policy()), environ={})}
    assert isinstance(tools["exec"].ctx.runner, BubblewrapRunner)


def test_hints_are_honest(make_tools: ToolsFactory) -> None:
    hints = {
        name: (t.annotations["readOnlyHint"], t.annotations["destructiveHint"])
        for name, t in make_tools(sandbox=True).items()
    }
    assert hints == {
        "read": (True, False),
        "write": (False, True),
        "edit": (False, True),
        "multi_edit": (False, True),
        "list": (True, False),
        "glob": (True, False),
        "grep": (True, False),
        "exec": (False, True),
        "code": (False, True),
        "fetch": (True, False),
        "install": (False, True),
        "detect_tools": (True, False),
        "session": (False, True),
        "job": (False, True),
    }


def test_each_schema_is_a_closed_object_naming_its_required_arguments(
    make_tools: ToolsFactory,
) -> None:
    schemas = {name: t.schema for name, t in make_tools(sandbox=True).items()}
    assert all(s["type"] == "object" and s["additionalProperties"] is False for s in schemas.values())
    assert {name: s["required"] for name, s in schemas.items()} == {
        "read": ["path"],
        "write": ["path", "content"],
        "edit": ["path", "old_string", "new_string"],
        "multi_edit": ["path", "edits"],
        "list": [],
        "glob": ["pattern"],
        "grep": ["pattern"],
        "exec": ["command"],
        "code": ["language", "source"],
        "fetch": ["url"],
        "install": ["manager", "packages"],
        "detect_tools": [],
        "session": ["action"],
        "job": ["action"],
    }


def test_the_code_schema_offers_only_installed_languages(make_tools: ToolsFactory) -> None:
    languages = make_tools(sandbox=True)["code"].schema["properties"]["language"]["enum"]
    assert set(languages) <= {"python", "bash", "node", "rust"}
    assert {"python", "bash"} <= set(languages)


def test_the_public_api_is_the_curated_sorted_list() -> None:
    assert bastion.tools.__all__ == sorted(bastion.tools.__all__, key=lambda n: (not n.isupper(), n))
    assert all(getattr(bastion.tools, name) is not None for name in bastion.tools.__all__)


def test_the_runner_given_is_the_runner_used(make_policy: PolicyFactory) -> None:
    require_bwrap()
    runner = BubblewrapRunner()
    tools = {t.name: t for t in registry(Configuration(make_policy()), runner=runner, environ={})}
    assert tools["exec"].ctx.runner is runner
