"""``bastion mcp install``: each agent's MCP config rewritten to go through the proxy."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

import pytest

from bastion.adapters.mcp.install import InstallError, install_agent
from tests.adapters.mcp.conftest import BASTION

CLAUDE = {
    "mcpServers": {
        "files": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
            "env": {"DEBUG": "1"},
        },
        "remote": {"type": "http", "url": "https://mcp.example.com/mcp"},
        "secret": {
            "type": "http",
            "url": "https://x.example.com/mcp",
            "headers": {"Authorization": "Bearer t"},
        },
        "old": {"type": "sse", "url": "https://sse.example.com/sse"},
    }
}


def test_claude_servers_are_wrapped_with_a_backup_and_a_diff(tmp_path: Path) -> None:
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps(CLAUDE))
    report = install_agent(
        "claude", file=None, dry_run=False, policy=None, cwd=str(tmp_path), env={}, bastion="/usr/bin/bastion"
    )
    written = json.loads(config.read_text())["mcpServers"]
    assert written["files"] == {
        "command": "/usr/bin/bastion",
        "env": {"DEBUG": "1"},
        "args": [
            "mcp",
            "proxy",
            "--name",
            "files",
            "--",
            "npx",
            "-y",
            "@modelcontextprotocol/server-filesystem",
            ".",
        ],
    }
    assert written["remote"] == {
        "command": "/usr/bin/bastion",
        "args": ["mcp", "proxy", "--name", "remote", "--url", "https://mcp.example.com/mcp"],
    }
    assert written["secret"] == CLAUDE["mcpServers"]["secret"]
    assert written["old"] == CLAUDE["mcpServers"]["old"]
    assert (report.wrapped, report.skipped) == (["files", "remote"], ["secret", "old"])
    assert json.loads(Path(f"{config}.bastion-backup").read_text()) == CLAUDE
    assert report.diff.startswith(f"--- {config}\n+++ {config} (bastion)\n")


def test_installing_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps(CLAUDE))
    install_agent(
        "claude", file=None, dry_run=False, policy=None, cwd=str(tmp_path), env={}, bastion="bastion"
    )
    once = config.read_text()
    again = install_agent(
        "claude", file=None, dry_run=False, policy=None, cwd=str(tmp_path), env={}, bastion="bastion"
    )
    assert config.read_text() == once
    assert again.diff == "" and again.wrapped == []


def test_a_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps(CLAUDE))
    before = config.read_text()
    report = install_agent(
        "claude",
        file=None,
        dry_run=True,
        policy=str(tmp_path / "p.toml"),
        cwd=str(tmp_path),
        env={},
        bastion="bastion",
    )
    assert config.read_text() == before and report.backup is None
    assert f'"--policy",\n+        "{tmp_path / "p.toml"}"' in report.diff


def test_gemini_http_servers_use_httpurl_and_sse_ones_are_left_alone(tmp_path: Path) -> None:
    config = tmp_path / ".gemini" / "settings.json"
    config.parent.mkdir()
    config.write_text(
        json.dumps(
            {
                "theme": "dark",
                "mcpServers": {
                    "git": {"command": "uvx", "args": ["mcp-server-git"], "cwd": "/src", "timeout": 5000},
                    "web": {"httpUrl": "http://localhost:9000/mcp"},
                    "feed": {"url": "http://localhost:9001/sse"},
                },
            }
        )
    )
    install_agent(
        "gemini",
        file=None,
        dry_run=False,
        policy=None,
        cwd=str(tmp_path),
        env={"HOME": "/none"},
        bastion="bastion",
    )
    data = json.loads(config.read_text())
    assert data["theme"] == "dark"
    assert data["mcpServers"] == {
        "git": {
            "command": "bastion",
            "args": ["mcp", "proxy", "--name", "git", "--", "uvx", "mcp-server-git"],
            "cwd": "/src",
            "timeout": 5000,
        },
        "web": {
            "command": "bastion",
            "args": ["mcp", "proxy", "--name", "web", "--url", "http://localhost:9000/mcp"],
        },
        "feed": {"url": "http://localhost:9001/sse"},
    }


def test_codex_config_toml_is_edited_in_place_keeping_comments(tmp_path: Path) -> None:
    home = tmp_path / "codex"
    home.mkdir()
    config = home / "config.toml"
    config.write_text(
        'model = "o4"  # my model\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n'
        'env = { TOKEN_FILE = "/t" }\n'
    )
    install_agent(
        "codex",
        file=None,
        dry_run=False,
        policy=None,
        cwd=str(tmp_path),
        env={"CODEX_HOME": str(home)},
        bastion="bastion",
    )
    text = config.read_text()
    assert text.startswith('model = "o4"  # my model\n')
    assert tomllib.loads(text)["mcp_servers"]["docs"] == {
        "command": "bastion",
        "args": ["mcp", "proxy", "--name", "docs", "--", "npx", "-y", "docs-mcp"],
        "env": {"TOKEN_FILE": "/t"},
    }


def test_an_unknown_agent_or_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="unknown agent 'cursor'"):
        install_agent("cursor", file=None, dry_run=True, policy=None, cwd=str(tmp_path), env={})
    with pytest.raises(InstallError, match="no such file, so no MCP servers to wrap"):
        install_agent("claude", file=None, dry_run=True, policy=None, cwd=str(tmp_path), env={})


def test_the_install_command_prints_the_diff(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"a": {"command": "srv"}}}))
    done = subprocess.run(
        [BASTION, "mcp", "install", "claude", "--dry-run"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '+      "command": "' in done.stdout and "dry run: nothing written" in done.stdout


def test_install_says_for_each_wrapped_server_that_its_path_and_url_arguments_are_checked(
    tmp_path: Path,
) -> None:
    # Issue 15: mcp install neither wrote nor mentioned any path config; the checks are now
    # inferred by default, and install says so for every server it wrapped.
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps(CLAUDE))
    report = install_agent(
        "claude", file=None, dry_run=False, policy=None, cwd=str(tmp_path), env={}, bastion="bastion"
    )
    inferred = [n for n in report.notes if "inferred from each tool's inputSchema" in n]
    assert [n.split(":")[0] for n in inferred] == ["files", "remote"]
    assert inferred[0].endswith("[mcp.servers.files] paths = [...], urls = [...]")
