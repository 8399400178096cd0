"""``bastion install`` / ``uninstall`` on copies of real settings files: every unrelated key
survives, a second install changes nothing, uninstall gives the original back."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks.install import InstallError, hook_checks, install, uninstall
from bastion.adapters.hooks.targets import CLAUDE_DENY_MIRROR, hook_command, hook_launcher
from tests.adapters.hooks.conftest import FIXTURES, Sandbox, bastion_exe

SETTINGS = FIXTURES / "settings"
#: agent → (scope, path relative to the sandbox, fixture copied there)
LAYOUT = {
    "claude": ("project", "home/proj/.claude/settings.json", "claude.settings.json"),
    "gemini": ("user", "home/.gemini/settings.json", "gemini.settings.json"),
    "codex": ("user", "home/.codex/hooks.json", "codex.hooks.json"),
    "qwen": ("project", "home/proj/.qwen/settings.json", "qwen.settings.json"),
}
EXE = "/opt/bastion/bin/bastion"


def lines() -> tuple[list[str], Any]:
    out: list[str] = []
    return out, out.append


def place(agent: str, sandbox: Sandbox) -> tuple[str, Path, Any]:
    scope, relative, fixture = LAYOUT[agent]
    path = sandbox.root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SETTINGS / fixture, path)
    return scope, path, json.loads(path.read_text())


def without_bastion(value: Any, agent: str) -> Any:
    """The document with Bastion's handlers, emptied groups and mirror rules taken out."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in ("command", "bash") and isinstance(item, str) and f" hook {agent}" in item:
                return None
            kept = without_bastion(item, agent)
            if kept is not None and kept != []:  # the fixtures hold no empty lists of their own
                out[key] = kept
        return out
    if isinstance(value, list):
        items = [without_bastion(v, agent) for v in value]
        items = [v for v in items if v is not None and v not in ({}, {"matcher": "*"})]
        return [v for v in items if v not in CLAUDE_DENY_MIRROR or v == "Read(~/.ssh/**)"]
    return value


@pytest.mark.parametrize("agent", sorted(LAYOUT))
def test_install_keeps_every_unrelated_key_and_adds_the_hook(agent: str, sandbox: Sandbox) -> None:
    scope, path, original = place(agent, sandbox)
    out, echo = lines()

    install(agent, scope=scope, cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=echo)

    after = json.loads(path.read_text())
    assert without_bastion(after, agent) == original
    assert hook_command(agent, EXE, timeout=60) in path.read_text().replace('\\"', '"')
    assert any(line.startswith(f"--- {path} (before)") for line in out)
    assert len(list(path.parent.glob(f"{path.name}.bastion-backup-*"))) == 1


@pytest.mark.parametrize("agent", sorted(LAYOUT))
def test_install_twice_changes_nothing_the_second_time(agent: str, sandbox: Sandbox) -> None:
    scope, path, _ = place(agent, sandbox)
    install(agent, scope=scope, cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=lines()[1])
    first = path.read_bytes()
    out, echo = lines()

    install(agent, scope=scope, cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=echo)

    assert path.read_bytes() == first
    assert f"{path}: Bastion's hook is already installed; nothing to change" in out
    assert len(list(path.parent.glob(f"{path.name}.bastion-backup-*"))) == 1


@pytest.mark.parametrize("agent", sorted(LAYOUT))
def test_uninstall_gives_the_original_settings_back(agent: str, sandbox: Sandbox) -> None:
    scope, path, original = place(agent, sandbox)
    install(agent, scope=scope, cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=lines()[1])

    uninstall(agent, scope=scope, cwd=str(sandbox.project), env=sandbox.env(), out=lines()[1])

    assert json.loads(path.read_text()) == original


def test_dry_run_prints_the_diff_and_writes_nothing(sandbox: Sandbox) -> None:
    _, path, _ = place("claude", sandbox)
    before = path.read_bytes()
    out, echo = lines()

    install("claude", cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, dry_run=True, out=echo)

    assert path.read_bytes() == before
    assert "(dry run: nothing written)" in out
    assert any('+        "matcher": "*"' in line for line in out)


def test_claude_install_adds_the_deny_mirror_and_warns_about_bypass_permissions(sandbox: Sandbox) -> None:
    path = sandbox.project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"permissions": {"defaultMode": "bypassPermissions"}}))
    out, echo = lines()

    install("claude", cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=echo)

    after = json.loads(path.read_text())
    assert after["permissions"]["deny"] == list(CLAUDE_DENY_MIRROR)
    assert [g["matcher"] for g in after["hooks"]["PreToolUse"]] == ["*"]
    assert after["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] == 60
    assert out[0].startswith("WARNING: permissions.defaultMode is bypassPermissions")


def test_copilot_gets_its_own_hooks_file_and_refuses_user_scope(sandbox: Sandbox) -> None:
    install("copilot", cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=lines()[1])

    written = json.loads((sandbox.project / ".github" / "hooks" / "bastion.json").read_text())
    assert written == {
        "version": 1,
        "hooks": {
            "preToolUse": [
                {"type": "command", "bash": hook_command("copilot", EXE, timeout=60), "timeoutSec": 60}
            ]
        },
    }
    with pytest.raises(ValueError, match="use --project"):
        install("copilot", scope="user", cwd=str(sandbox.project), env=sandbox.env(), out=lines()[1])


def test_a_settings_file_that_is_not_json_is_left_alone(sandbox: Sandbox) -> None:
    path = sandbox.project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ broken")

    with pytest.raises(InstallError, match="not valid JSON"):
        install("claude", cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=lines()[1])
    assert path.read_text() == "{ broken"


def test_codex_install_prints_the_trust_step(sandbox: Sandbox) -> None:
    out, echo = lines()

    install("codex", scope="user", cwd=str(sandbox.project), env=sandbox.env(), executable=EXE, out=echo)

    assert any("/hooks" in line and "--dangerously-bypass-hook-trust" in line for line in out)


def test_doctor_probes_each_installed_hook(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    install("claude", cwd=str(sandbox.project), env=sandbox.env(), executable=bastion_exe(), out=lines()[1])
    broken = sandbox.project / "broken"
    broken.mkdir()
    install("qwen", cwd=str(broken), env=sandbox.env(), executable="/nonexistent/bastion", out=lines()[1])
    for key, value in sandbox.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(sandbox.project)

    checks = hook_checks(None)
    monkeypatch.chdir(broken)
    broken_checks = hook_checks(None)

    assert [(name, ok) for name, ok, _ in checks] == [
        (f"hook claude ({sandbox.project}/.claude/settings.json)", True)
    ]
    assert "denies a probe 'rm -rf /'" in checks[0][2]
    assert [(ok, detail) for _, ok, detail in broken_checks] == [
        (False, "/nonexistent/bastion is not executable: re-run bastion install qwen")
    ]


def test_doctor_probes_a_hook_without_writing_the_ledger(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    install("claude", cwd=str(sandbox.project), env=sandbox.env(), executable=bastion_exe(), out=lines()[1])
    for key, value in sandbox.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(sandbox.project)
    state = Path(sandbox.env()["BASTION_STATE_DIR"])
    before = sorted(p.name for p in state.iterdir()) if state.exists() else []

    checks = hook_checks(None)

    assert [ok for _, ok, _ in checks] == [True]
    after = sorted(p.name for p in state.iterdir()) if state.exists() else []
    assert after == before  # no ledger, no daemon socket: doctor only reads


def test_install_writes_the_site_free_launcher_by_default_and_doctor_checks_its_script(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    install("claude", cwd=str(sandbox.project), env=sandbox.env(), out=lines()[1])
    broken = sandbox.project / "broken"
    broken.mkdir()
    gone = (
        sys.executable,
        "-S",
        str(sandbox.root / "gone" / "bastion" / "adapters" / "hooks" / "fastpath.py"),
    )
    install("qwen", cwd=str(broken), env=sandbox.env(), executable=gone, out=lines()[1])
    for key, value in sandbox.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(sandbox.project)

    written = (sandbox.project / ".claude" / "settings.json").read_text().replace('\\"', '"')
    checks = hook_checks(None)
    monkeypatch.chdir(broken)
    broken_checks = hook_checks(None)

    assert hook_command("claude", hook_launcher(), timeout=60) in written
    assert [(ok, "denies a probe 'rm -rf /'" in detail) for _, ok, detail in checks] == [(True, True)]
    assert [(ok, detail) for _, ok, detail in broken_checks] == [
        (False, f"{gone[2]} is missing: re-run bastion install qwen")
    ]


def test_install_ends_with_a_sentence_naming_the_launcher_as_a_shell_would_type_it(sandbox: Sandbox) -> None:
    seen, out = lines()
    launcher = ("/opt/py/bin/python", "-S", "/opt/bastion/adapters/hooks/fastpath.py")
    install("claude", scope="user", cwd=str(sandbox.project), env=sandbox.env(), executable=launcher, out=out)
    assert seen[-1] == (
        "installed: claude now asks Bastion before every tool call "
        "(/opt/py/bin/python -S /opt/bastion/adapters/hooks/fastpath.py hook claude)."
    )
