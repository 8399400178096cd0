"""``bastion tool NAME --args JSON`` and ``bastion tools --json`` from the shell."""

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


@pytest.fixture
def policy_file(tmp_path: Path) -> str:
    path = tmp_path / "policy.toml"
    path.write_text('[[rule]]\ntool = "fetch"\naction = "deny"\n')
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


@pytest.mark.usefixtures("cli_env")
def test_tool_prints_the_result_as_json_and_exits_0(
    capsys: pytest.CaptureFixture[str], workspace: Path, policy_file: str
) -> None:
    code, out = _run(
        capsys,
        "tool",
        "read",
        "--args",
        '{"path": "README.md"}',
        "--policy",
        policy_file,
        "--cwd",
        str(workspace),
    )
    result = json.loads(out)
    assert (code, result["ok"], result["decision"], result["stdout"]) == (0, True, "allow", "# hi\n")


@pytest.mark.usefixtures("cli_env")
def test_a_denied_tool_call_exits_4_with_the_reason(
    capsys: pytest.CaptureFixture[str], workspace: Path, policy_file: str
) -> None:
    code, out = _run(
        capsys,
        "tool",
        "read",
        "--args",
        '{"path": "~/.ssh/id_rsa"}',
        "--policy",
        policy_file,
        "--cwd",
        str(workspace),
    )
    result = json.loads(out)
    assert (code, result["ok"], result["decision"], result["stdout"]) == (4, False, "deny", "")


@pytest.mark.usefixtures("cli_env")
def test_exec_from_the_shell_runs_in_the_sandbox(
    capsys: pytest.CaptureFixture[str], workspace: Path, policy_file: str
) -> None:
    require_bwrap()
    code, out = _run(
        capsys,
        "tool",
        "exec",
        "--args",
        '{"command": "ls"}',
        "--policy",
        policy_file,
        "--cwd",
        str(workspace),
    )
    result = json.loads(out)
    assert (code, result["stdout"], result["data"]) == (0, "README.md\nsrc\n", {"runner": "bubblewrap"})


@pytest.mark.usefixtures("cli_env")
def test_tools_json_lists_the_enabled_tools_without_the_disabled_one(
    capsys: pytest.CaptureFixture[str], workspace: Path, policy_file: str
) -> None:
    require_bwrap()
    code, out = _run(capsys, "tools", "--json", "--policy", policy_file, "--cwd", str(workspace))
    listed = json.loads(out)
    assert code == 0
    assert [t["name"] for t in listed] == [
        "read", "write", "edit", "multi_edit", "list", "glob", "grep", "exec", "code", "install",
        "detect_tools", "session", "job",
    ]  # fmt: skip
    assert listed[0]["input_schema"]["required"] == ["path"]


@pytest.mark.usefixtures("cli_env")
def test_a_disabled_tool_is_denied_as_unknown_with_exit_4(
    capsys: pytest.CaptureFixture[str], workspace: Path, policy_file: str
) -> None:
    code, out = _run(
        capsys,
        "tool",
        "fetch",
        "--args",
        '{"url": "https://example.com"}',
        "--policy",
        policy_file,
        "--cwd",
        str(workspace),
    )
    result = json.loads(out)
    assert (code, result["ok"], result["decision"], [r["rule"] for r in result["reasons"]]) == (
        4,
        False,
        "deny",
        ["call.unknown-family"],
    )
    assert result["message"].startswith("[policy-denied] unknown tool 'fetch': not offered here (tools: ")


@pytest.mark.usefixtures("cli_env")
def test_the_cli_refuses_to_start_with_the_credentials_dir_in_the_workspace(
    capsys: pytest.CaptureFixture[str], workspace: Path, tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f'credentials_dir = "{workspace}/creds"\n')
    code = main(["tools", "--json", "--policy", str(path), "--cwd", str(workspace)])
    assert code == 2
    assert "lies inside the readable root" in capsys.readouterr().err
