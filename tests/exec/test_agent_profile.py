"""The ``agent:AGENT`` profile's pure parts: the table of agents, the paths and hosts it
resolves on a machine, and the variables an agent is given."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion.exec.agent_profile import (
    AGENT_HOMES,
    HOOK_SOCKET_ENV,
    AgentPaths,
    agent_environment,
    agent_paths,
    home_for,
    install_roots,
)
from bastion.exec.profile import Filesystem, Profile, parse_profile
from bastion.exec.runner import ExecError
from bastion.exec.settings import ExecConfig


def test_an_agent_profile_parses_to_the_workspace_writable_profile_of_that_agent() -> None:
    profile = parse_profile("agent:codex")

    assert profile == Profile(Filesystem.WORKSPACE_WRITE, agent="codex")
    assert (profile.label, profile.argv()) == (
        "agent:codex, network: egress proxy",
        ["--profile", "agent:codex"],
    )


@pytest.mark.parametrize("name", ["agent:", "agent:../x", "agent:a b", "agent:x/y"])
def test_a_malformed_agent_profile_is_refused(name: str) -> None:
    with pytest.raises(ExecError, match="is not an agent profile"):
        parse_profile(name)


def test_an_agent_profile_takes_no_extra_host() -> None:
    with pytest.raises(ExecError, match="no --host"):
        parse_profile("agent:codex", ["evil.example"])


def test_an_agent_without_a_record_has_no_profile() -> None:
    with pytest.raises(ExecError, match="no agent profile for 'nosuch'"):
        home_for("nosuch")


def test_every_record_names_its_places_relative_to_home_and_its_model_api() -> None:
    for record in AGENT_HOMES.values():
        places = (*record.folders, *record.files, *record.settings)
        assert [p for p in places if os.path.isabs(p) or ".." in p.split("/")] == [], record.name
        assert record.model_hosts, record.name


def test_codex_s_paths_follow_codex_home_and_its_providers_name_hosts_and_keys(tmp_path: Path) -> None:
    moved = tmp_path / "codex-home"
    moved.mkdir()
    (moved / "config.toml").write_text(
        '[model_providers.fake]\nbase_url = "http://127.0.0.1:9/v1"\nenv_key = "FAKE_KEY"\n'
        '[model_providers.other]\nbase_url = "https://Models.Example/v1"\n'
    )

    paths = agent_paths(
        home_for("codex"), "/h", {"CODEX_HOME": str(moved), "OPENAI_BASE_URL": "https://gw.corp/v1"}
    )

    assert paths == AgentPaths(
        folders=(str(moved),),
        files=(),
        settings=tuple(str(moved / s) for s in ("config.toml", "hooks.json", "rules", "requirements.toml")),
        model_hosts=(
            "api.openai.com",
            "chatgpt.com",
            "auth.openai.com",
            "gw.corp",
            "127.0.0.1",
            "models.example",
        ),
        env_names=("FAKE_KEY",),
    )


def test_claude_s_state_is_its_folder_and_its_json_file_with_the_settings_read_only() -> None:
    paths = agent_paths(home_for("claude"), "/h", {})

    assert (paths.folders, paths.files) == (("/h/.claude",), ("/h/.claude.json",))
    assert "/h/.claude/settings.json" in paths.settings and "/h/.claude/hooks" in paths.settings


def test_an_agent_gets_its_own_variables_the_hook_socket_and_no_other_tool_s_secret() -> None:
    environ = {
        "PATH": "/usr/bin", "HOME": "/h", "TERM": "xterm", "OPENAI_API_KEY": "k", "QWEN_X": "1",
        "AWS_SECRET_ACCESS_KEY": "a", "GITHUB_TOKEN": "g", "BASTION_SHADOW": "1", "BASTION_POLICY": "/p",
    }  # fmt: skip
    record = home_for("qwen")

    env = agent_environment(record, agent_paths(record, "/h", environ), ExecConfig(), environ, "/tmp/hooks-1")

    assert env == {
        "PATH": "/usr/bin", "HOME": "/h", "TERM": "xterm", "OPENAI_API_KEY": "k", "QWEN_X": "1",
        HOOK_SOCKET_ENV: "/tmp/hooks-1/hooks.sock",
    }  # fmt: skip


def test_the_install_roots_are_the_agent_s_package_prefix_and_never_a_system_folder() -> None:
    roots = install_roots(["/opt/npm/node_modules/.bin/qwen"])

    assert "/opt/npm" in roots
    assert [r for r in roots if r.startswith(("/usr", "/bin", "/lib")) or r == "/"] == []
