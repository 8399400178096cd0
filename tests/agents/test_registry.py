"""The one registry of agents: every command that knows agents reads the same records, and
each record agrees with the translation module that speaks its wire format."""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

import pytest

from bastion.adapters.cli import hooks_cmd
from bastion.adapters.hooks import client, entry
from bastion.adapters.hooks.agent_trust import project_trust
from bastion.adapters.hooks.own_file import own_file_agents
from bastion.adapters.hooks.protocol import AgentProtocol
from bastion.adapters.hooks.targets import hook_command, hook_file, target_for
from bastion.agents.model import AskHandling, Enforcement, SettingWarning, TrustModel
from bastion.agents.registry import (
    AGENTS,
    BY_NAME,
    UnknownAgent,
    agent,
    hook_env_prefixes,
    hook_names,
    hooked,
    hooks_of,
    uncontained,
)
from bastion.call.aliases import canonical
from bastion.exec.agent_profile import AGENT_HOMES
from bastion.exec.capabilities import UNCONTAINED_AGENTS
from bastion.exec.protected import PROTECTED_DIRS, ROOT_SWEPT
from bastion.launch.agents import KNOWN
from bastion.policy.hardline import AGENT_PERMISSION_GLOBS

HOOKED = [a.name for a in hooked()]
#: The agents whose hooks this file pins (others join the registry with tests of their own).
PINNED = ["claude", "codex", "gemini", "qwen", "copilot"]


def _protocol(name: str) -> AgentProtocol:
    protocol: AgentProtocol = importlib.import_module(f"bastion.adapters.hooks.{name}").PROTOCOL
    return protocol


def test_the_registry_holds_each_of_the_seven_agents_once_with_its_own_home() -> None:
    assert [a.name for a in AGENTS] == ["claude", "codex", "gemini", "qwen", "copilot", "opencode", "pi"]
    assert list(BY_NAME) == [a.name for a in AGENTS]
    assert all(a.home.name == a.name for a in AGENTS)
    assert HOOKED[:5] == PINNED


def test_every_command_that_knows_agents_reads_the_registry() -> None:
    names = [a.name for a in AGENTS]
    assert list(KNOWN) == names  # launch and `bastion agents`
    assert list(AGENT_HOMES) == names  # agent:AGENT
    assert entry.AGENTS == hooks_cmd.AGENTS == (*HOOKED, "generic")  # hook, install, uninstall
    assert dict(UNCONTAINED_AGENTS) == {
        "qwen": "bastion launch qwen (the agent itself in Bastion's agent:qwen sandbox)"
    }
    assert [a.name for a in uncontained()] == ["qwen"]


@pytest.mark.parametrize("name", HOOKED)
def test_each_hooked_agent_has_a_translation_module_that_agrees_with_its_record(name: str) -> None:
    protocol = _protocol(name)
    enforcement = hooks_of(name).enforcement
    assert (protocol.name, protocol.honours_ask, protocol.rewrites_input) == (
        name,
        enforcement.ask is AskHandling.AGENT_PROMPT,
        enforcement.rewrite,
    )


@pytest.mark.parametrize("name", HOOKED)
def test_each_doctor_probe_reads_as_the_shell_call_every_policy_denies(name: str) -> None:
    payload = {"session_id": "s", "cwd": "/work", **hooks_of(name).probe}
    request = _protocol(name).parse(json.loads(json.dumps(payload)), {})
    assert canonical(request.tool, request.args) == ("shell", {"command": "rm -rf /"})


def test_the_hook_client_forwards_every_hooked_agents_variables() -> None:
    # client.py spells the prefixes out (importing the registry would slow every hook).
    assert hook_env_prefixes() == client.FORWARDED_PREFIXES
    assert hook_env_prefixes()[:6] == ("BASTION_", "CLAUDE_", "CODEX_", "GEMINI_", "QWEN_", "COPILOT_")


def test_each_agents_project_folders_are_read_only_and_swept_in_a_sandbox() -> None:
    for record in AGENTS:
        assert set(record.project_dirs) <= PROTECTED_DIRS, record.name
        assert set(record.project_dirs) <= set(ROOT_SWEPT), record.name


def test_each_agents_permission_globs_are_on_the_hard_line() -> None:
    for record in AGENTS:
        assert set(record.permission_globs) <= set(AGENT_PERMISSION_GLOBS), record.name
    assert AGENT_PERMISSION_GLOBS[:10] == (
        "**/.claude/settings*.json",
        "**/.claude/hooks",
        "**/.mcp.json",
        ".codex",
        ".gemini",
        "**/.qwen/settings*.json",
        "**/.github/hooks",
        "**/.github/copilot",
        "**/.copilot",
        "**/opencode.json",
    )


@pytest.mark.parametrize(
    ("name", "project", "user"),
    [
        ("claude", ".claude/settings.json", "home/.claude/settings.json"),
        ("codex", ".codex/hooks.json", "codex-home/hooks.json"),
        ("gemini", ".gemini/settings.json", "home/.gemini/settings.json"),
        ("qwen", ".qwen/settings.json", "home/.qwen/settings.json"),
    ],
)
def test_the_settings_file_is_where_the_record_says_in_each_scope(
    tmp_path: Path, name: str, project: str, user: str
) -> None:
    env = {"HOME": str(tmp_path / "home"), "CODEX_HOME": str(tmp_path / "codex-home")}
    cwd = str(tmp_path / "p")
    assert target_for(name, scope="project", cwd=cwd, env=env).path == os.path.join(cwd, project)
    assert target_for(name, scope="user", cwd=cwd, env=env).path == str(tmp_path / user)


def test_an_agent_whose_hooks_live_only_in_the_project_refuses_a_user_install(tmp_path: Path) -> None:
    target = target_for("copilot", scope="project", cwd=str(tmp_path), env={"HOME": str(tmp_path)})
    assert target.path == str(tmp_path / ".github" / "hooks" / "bastion.json")
    with pytest.raises(ValueError, match=r"^Copilot CLI reads hooks from the repository's \.github/hooks"):
        target_for("copilot", scope="user", cwd=str(tmp_path), env={"HOME": str(tmp_path)})


def test_a_plugin_agents_hook_is_its_plugin_file_where_the_record_says(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home")}
    cwd = str(tmp_path / "p")
    assert hook_file("opencode", scope="project", cwd=cwd, env=env) == f"{cwd}/.opencode/plugin/bastion.js"
    assert (
        hook_file("opencode", scope="user", cwd=cwd, env=env)
        == f"{tmp_path}/home/.config/opencode/plugin/bastion.js"
    )
    xdg = {**env, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    assert (
        hook_file("opencode", scope="user", cwd=cwd, env=xdg) == f"{tmp_path}/xdg/opencode/plugin/bastion.js"
    )
    with pytest.raises(ValueError, match=r"^opencode has no settings file: Bastion writes its own file"):
        target_for("opencode", scope="project", cwd=cwd, env=env)


@pytest.mark.parametrize("name", ["generic", "nope"])
def test_an_agent_without_a_hook_record_has_no_settings_file(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError):
        target_for(name, scope="project", cwd=str(tmp_path), env={"HOME": str(tmp_path)})


def test_an_unknown_name_is_refused_by_name() -> None:
    with pytest.raises(UnknownAgent, match=r"unknown agent 'nope' \(one of: claude, codex, gemini"):
        agent("nope")
    with pytest.raises(UnknownAgent, match="unknown agent 'generic'"):
        hooks_of("generic")


#: Claude Code's reports of what became of an ASK put to its prompt (hooks/after_tool).
REPORTS = ["PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "SessionEnd"]


def test_the_entry_written_follows_the_records_style_event_and_timeout_unit() -> None:
    docs = {name: target_for(name, scope="project", cwd="/p", env={"HOME": "/h"}).add({}, "/b", 30)
            for name in PINNED}  # fmt: skip
    assert docs["gemini"]["hooks"] == {"BeforeTool": [{"matcher": "*", "hooks": [
        {"type": "command", "command": hook_command("gemini", "/b", timeout=30), "timeout": 30000,
         "name": "bastion"}]}]}  # fmt: skip
    assert docs["codex"]["hooks"] == {"PreToolUse": [{"hooks": [
        {"type": "command", "command": hook_command("codex", "/b", timeout=30), "timeout": 30}]}]}  # fmt: skip
    assert sorted(docs["claude"]["hooks"]) == sorted(["PermissionRequest", "PreToolUse", *REPORTS])
    assert docs["claude"]["hooks"]["Stop"] == [{"matcher": "*", "hooks": [{"type": "command",
        "command": hook_command("claude", "/b", timeout=30, event="Stop", blocks=False), "timeout": 30}]}]  # fmt: skip
    assert docs["claude"]["permissions"]["deny"] == list(hooks_of("claude").deny_mirror)
    assert docs["copilot"] == {"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": hook_command("copilot", "/b", timeout=30), "timeoutSec": 30}]}}  # fmt: skip


def test_the_trust_gate_each_record_names_is_the_one_checked(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    models = {name: hooks_of(name).trust for name in PINNED}
    assert models == {
        "claude": TrustModel.NONE,
        "codex": TrustModel.CODEX_PROJECTS,
        "gemini": TrustModel.GEMINI_FOLDERS,
        "qwen": TrustModel.QWEN_FOLDERS,
        "copilot": TrustModel.COPILOT_FOLDERS,
    }
    checked = {name: project_trust(name, str(tmp_path), env) for name in PINNED}
    assert [name for name, trust in checked.items() if trust is None] == ["claude"]
    assert checked["copilot"] is not None and not checked["copilot"].trusted  # no trustedFolders
    assert checked["codex"] is not None and not checked["codex"].trusted  # no config.toml
    assert checked["gemini"] is not None and not checked["gemini"].trusted  # folder trust on
    assert checked["qwen"] is not None and checked["qwen"].trusted  # folder trust off


def test_a_setting_warning_matches_type_and_value_not_truthiness() -> None:
    off = SettingWarning(("hooksConfig", "enabled"), False, "off")
    assert off.found_in({"hooksConfig": {"enabled": False}})
    assert not off.found_in({"hooksConfig": {"enabled": 0}})
    assert not off.found_in({"hooksConfig": False})
    assert not off.found_in({})


def test_enforcement_words_name_only_the_answers_that_hold() -> None:
    assert Enforcement(AskHandling.AGENT_PROMPT, rewrite=True).words() == "deny, ask, rewrite"
    assert Enforcement(AskHandling.IGNORED, rewrite=False).words() == "deny"
    assert {name: hooks_of(name).enforcement.words() for name in PINNED} == {
        "claude": "deny, ask, rewrite",
        "codex": "deny, rewrite",
        "gemini": "deny, ask, rewrite",
        "qwen": "deny",
        "copilot": "deny, ask, rewrite",
    }


def test_an_agent_that_loads_code_gets_bastions_own_file_not_a_settings_entry(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home")}
    cwd = str(tmp_path / "p")
    assert hook_file("pi", scope="project", cwd=cwd, env=env) == os.path.join(
        cwd, ".pi/extensions/bastion.ts"
    )
    assert hook_file("pi", scope="user", cwd=cwd, env=env) == str(
        tmp_path / "home/.pi/agent/extensions/bastion.ts"
    )
    moved = {**env, "PI_CODING_AGENT_DIR": str(tmp_path / "pi-dir")}
    assert hook_file("pi", scope="user", cwd=cwd, env=moved) == str(tmp_path / "pi-dir/extensions/bastion.ts")
    with pytest.raises(ValueError, match=r"^pi has no settings file: Bastion writes its own file"):
        target_for("pi", scope="project", cwd=cwd, env=env)
    assert own_file_agents() == tuple(n for n in HOOKED if n in ("pi", "opencode"))


def test_hook_names_follow_the_registry_order() -> None:
    assert hook_names() == tuple(HOOKED)


def _write_decision(tmp_path: Path, relative: str) -> str:
    """Bastion's answer to Copilot creating ``relative`` in its project (in process)."""
    from bastion.adapters.hooks.decide import LocalDecider, Options

    project = tmp_path / "home" / "proj"
    project.mkdir(parents=True, exist_ok=True)
    env = {
        "HOME": str(tmp_path / "home"),
        "BASTION_STATE_DIR": str(tmp_path / "state"),
        "PATH": "/usr/bin:/bin",
    }
    args = json.dumps({"path": str(project / relative), "file_text": '{"disableAllHooks": true}'})
    request = _protocol("copilot").parse({"cwd": str(project), "toolName": "create", "toolArgs": args}, env)
    return LocalDecider().decide(request, _protocol("copilot"), Options(env=env)).decision


@pytest.mark.parametrize(
    "relative",
    [
        ".github/copilot/settings.local.json",  # 1.0.102 reads disableAllHooks there: hooks off
        ".github/copilot/settings.json",
        ".github/hooks/other.json",
        ".claude/settings.local.json",
        ".codex/hooks.json",
        ".gemini/settings.json",
        ".qwen/settings.json",
        "opencode.json",
        ".pi/extensions/evil.ts",
        ".pi/settings.json",
    ],
)
def test_no_agent_may_write_a_settings_file_that_could_turn_its_hook_off_unasked(
    tmp_path: Path, relative: str
) -> None:
    assert _write_decision(tmp_path, relative) in ("ask", "deny")


def test_an_ordinary_workspace_file_beside_them_is_still_written_unasked(tmp_path: Path) -> None:
    assert _write_decision(tmp_path, ".github/ISSUE_TEMPLATE/bug.md") == "allow"


def test_a_contained_call_sees_each_agents_project_settings_read_only_and_swept() -> None:
    from bastion.exec.protected import PROTECTED_CHILDREN

    assert PROTECTED_CHILDREN[".github"] == ("workflows", "actions", "hooks", "copilot")
    assert {".github/hooks", ".github/copilot"} <= set(ROOT_SWEPT)
