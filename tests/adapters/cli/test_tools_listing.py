"""``bastion tools`` lists only what the mode and ``enabled`` offer; ``bastion tool`` of
anything else is denied as unknown (exit 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.adapters.cli.main import main
from tests.exec.sandbox_helpers import require_bwrap


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("COLUMNS", "200")


def policy(tmp_path: Path, text: str) -> str:
    path = tmp_path / "policy.toml"
    path.write_text(text)
    return str(path)


def listed(capsys: pytest.CaptureFixture[str], file: str, workspace: Path) -> list[str]:
    code = main(["tools", "--json", "--policy", file, "--cwd", str(workspace)])
    assert code == 0
    return [t["name"] for t in json.loads(capsys.readouterr().out)]


@pytest.mark.usefixtures("cli_env")
def test_read_only_lists_no_tool_that_writes_or_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workspace: Path
) -> None:
    require_bwrap()
    file = policy(tmp_path, 'mode = "read-only"\n')
    assert listed(capsys, file, workspace) == ["read", "list", "glob", "grep", "fetch", "detect_tools"]


@pytest.mark.usefixtures("cli_env")
def test_workspace_lists_every_tool_and_the_table_shows_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workspace: Path
) -> None:
    require_bwrap()
    file = policy(tmp_path, 'mode = "workspace"\n')
    assert listed(capsys, file, workspace) == [
        "read", "write", "edit", "multi_edit", "list", "glob", "grep", "exec", "code", "fetch",
        "install", "detect_tools", "session", "job",
    ]  # fmt: skip
    assert main(["tools", "--policy", file, "--cwd", str(workspace)]) == 0
    rows = {line.split()[1] for line in capsys.readouterr().out.splitlines() if line.startswith("│")}
    assert {"multi_edit", "install", "detect_tools"} <= rows


@pytest.mark.usefixtures("cli_env")
def test_the_enabled_list_is_the_whole_listing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workspace: Path
) -> None:
    file = policy(tmp_path, 'enabled = ["read", "grep"]\n')
    assert listed(capsys, file, workspace) == ["read", "grep"]


@pytest.mark.usefixtures("cli_env")
@pytest.mark.parametrize(
    ("text", "tool", "args"),
    [
        ('mode = "read-only"\n', "write", {"path": "x.txt", "content": "x"}),
        ('mode = "read-only"\n', "exec", {"command": "true"}),
        ('enabled = ["read"]\n', "multi_edit", {"path": "README.md", "edits": []}),
        ("", "teleport", {}),
    ],
)
def test_a_call_to_a_tool_not_offered_is_denied_as_unknown_and_nothing_happens(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    workspace: Path,
    text: str,
    tool: str,
    args: dict[str, object],
) -> None:
    file = policy(tmp_path, text)
    code = main(["tool", tool, "--args", json.dumps(args), "--policy", file, "--cwd", str(workspace)])
    result = json.loads(capsys.readouterr().out)
    assert (code, result["ok"], result["decision"], [r["rule"] for r in result["reasons"]]) == (
        4,
        False,
        "deny",
        ["call.unknown-family"],
    )
    assert f"unknown tool {tool!r}: not offered here" in result["message"]
    assert not (workspace / "x.txt").exists()


@pytest.mark.usefixtures("cli_env")
def test_an_unknown_name_in_enabled_is_a_policy_error_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workspace: Path
) -> None:
    file = policy(tmp_path, 'enabled = ["read", "bash"]\n')
    assert main(["tools", "--json", "--policy", file, "--cwd", str(workspace)]) == 2
    assert f"{file}:1: enabled: unknown tool 'bash'" in capsys.readouterr().err
