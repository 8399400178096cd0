"""``bastion install codex`` in a project Codex does not trust protected nothing while install
and doctor said ok (issue 15): Codex skips untrusted project config with a warning."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from bastion.adapters.hooks.agent_trust import codex_trust, gemini_trust, qwen_trust
from bastion.adapters.hooks.install import hook_checks, install
from tests.adapters.hooks.conftest import Sandbox, agent_cli, bastion_exe
from tests.adapters.hooks.fake_models import FakeModelServer, Script

AGENT_TIMEOUT = 180


def codex_env(sandbox: Sandbox, codex_home: Path) -> dict[str, str]:
    return sandbox.env(CODEX_HOME=str(codex_home))


def test_codex_trust_is_the_project_roots_entry_exactly_as_codex_writes_it(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    home = tmp_path / "codex"
    home.mkdir()
    env = {"HOME": str(tmp_path), "CODEX_HOME": str(home)}
    config = home / "config.toml"

    missing = codex_trust(str(root / "sub"), env)
    config.write_text(f'[projects."{tmp_path}"]\ntrust_level = "trusted"\n')  # a parent: not enough
    parent_only = codex_trust(str(root / "sub"), env)
    config.write_text(f'[projects."{root}"]\ntrust_level = "untrusted"\n')
    refused = codex_trust(str(root / "sub"), env)
    config.write_text(f'model = "x"\n\n[projects."{root}"]\ntrust_level = "trusted"\n')
    trusted = codex_trust(str(root / "sub"), env)

    assert [t.trusted for t in (missing, parent_only, refused, trusted)] == [False, False, False, True]
    assert refused.detail == f"{config} marks {root} untrusted: Codex skips its .codex/hooks.json"
    assert f'[projects."{root}"] trust_level = "trusted"' in missing.fix
    assert "bastion install codex --user" in missing.fix


def test_codex_project_install_in_an_untrusted_project_says_it_is_not_active_and_what_to_run(
    sandbox: Sandbox,
) -> None:
    codex_home = sandbox.root / "codex-home"
    codex_home.mkdir()
    out: list[str] = []

    install(
        "codex",
        scope="project",
        cwd=str(sandbox.project),
        env=codex_env(sandbox, codex_home),
        executable=bastion_exe(),
        out=out.append,
    )

    project = os.path.realpath(sandbox.project)
    assert (
        f"NOT ACTIVE YET: {codex_home}/config.toml does not exist: Codex trusts no project, so it skips "
        f"{project}/.codex/hooks.json." in out
    )
    assert any(line.startswith("To activate it: start `codex` in") and "--user" in line for line in out)


def test_a_user_scope_codex_install_needs_no_project_trust(sandbox: Sandbox) -> None:
    out: list[str] = []

    install(
        "codex",
        scope="user",
        cwd=str(sandbox.project),
        env=sandbox.env(),
        executable=bastion_exe(),
        out=out.append,
    )

    assert not any(line.startswith("NOT ACTIVE") for line in out)


def test_doctor_fails_while_codex_would_skip_the_project_hook_and_passes_once_trusted(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    codex_home = sandbox.root / "codex-home"
    codex_home.mkdir()
    env = codex_env(sandbox, codex_home)
    install(
        "codex",
        scope="project",
        cwd=str(sandbox.project),
        env=env,
        executable=bastion_exe(),
        out=lambda _: None,
    )
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(sandbox.project)
    name = f"hook codex ({sandbox.project}/.codex/hooks.json)"

    before = [c for c in hook_checks(None) if c[0] == name]
    (codex_home / "config.toml").write_text(
        f'[projects."{os.path.realpath(sandbox.project)}"]\ntrust_level = "trusted"\n'
    )
    after = [c for c in hook_checks(None) if c[0] == name]

    assert [(c[1], c[2].split(":")[0]) for c in before] == [(False, "answers, but is skipped")]
    assert [c[1] for c in after] == [True]


def test_gemini_folder_trust_is_on_by_default_and_needs_the_folder_trusted(tmp_path: Path) -> None:
    (tmp_path / ".gemini").mkdir()
    project = tmp_path / "proj"
    project.mkdir()
    env = {"HOME": str(tmp_path), "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json")}
    unset = gemini_trust(str(project), env)
    (tmp_path / ".gemini" / "settings.json").write_text(
        json.dumps({"security": {"folderTrust": {"enabled": False}}})
    )
    off = gemini_trust(str(project), env)
    (tmp_path / ".gemini" / "settings.json").write_text(
        json.dumps({"security": {"folderTrust": {"enabled": True}}})
    )
    on_untrusted = gemini_trust(str(project), env)
    (tmp_path / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    on_trusted = gemini_trust(str(project), env)

    assert [t.trusted for t in (unset, off, on_untrusted, on_trusted)] == [False, True, False, True]
    assert "--skip-trust" in unset.detail and "bastion install gemini --user" in unset.fix


@pytest.mark.parametrize(
    ("rules", "trusted"),
    [
        ({"{p}/child": "TRUST_PARENT"}, True),  # TRUST_PARENT on a child trusts its parent
        ({"{root}/sibling": "TRUST_PARENT"}, True),  # a sibling's parent is ours too
        ({"{p}/a/b": "TRUST_PARENT"}, False),  # a grandchild's parent is below the folder
        ({"{root}": "TRUST_FOLDER", "{p}": "DO_NOT_TRUST"}, False),  # the longest rule decides
        ({"{root}": "DO_NOT_TRUST", "{p}": "TRUST_FOLDER"}, True),
        ({"{p}-other": "TRUST_FOLDER"}, False),  # a name prefix is not a parent
        ({"{p}/sub": "TRUST_FOLDER"}, False),  # a trusted child does not trust its parent
    ],
)
def test_gemini_trusted_folder_rules_match_the_cli(
    tmp_path: Path, rules: dict[str, str], trusted: bool
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (tmp_path / ".gemini").mkdir()
    filled = {k.format(p=project, root=tmp_path): v for k, v in rules.items()}
    (tmp_path / ".gemini" / "trustedFolders.json").write_text(json.dumps(filled))
    env = {"HOME": str(tmp_path), "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json")}

    assert gemini_trust(str(project), env).trusted is trusted


def test_gemini_trust_variables_and_system_settings_decide_before_the_rules(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    system = tmp_path / "system.json"
    base = {"HOME": str(tmp_path), "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(system)}
    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini" / "settings.json").write_text(
        json.dumps({"security": {"folderTrust": {"enabled": False}}})
    )
    user_off = gemini_trust(str(project), base)
    system.write_text(json.dumps({"security": {"folderTrust": {"enabled": True}}}))
    system_on = gemini_trust(str(project), base)

    assert (user_off.trusted, system_on.trusted) == (True, False)
    assert gemini_trust(str(project), {**base, "GEMINI_CLI_TRUST_WORKSPACE": "true"}).trusted is True
    assert gemini_trust(str(project), {**base, "GEMINI_CLI_TRUST_WORKSPACE": "false"}).trusted is False
    restricted = {**base, "GEMINI_CLI_TRUST_WORKSPACE": "true", "GEMINI_RESTRICTED_MODE": "true"}
    assert gemini_trust(str(project), restricted).trusted is False


@pytest.mark.parametrize(
    ("enabled", "rules", "trusted"),
    [
        (None, {"{p}": "DO_NOT_TRUST"}, True),  # folder trust is off by default
        (True, {}, True),  # undecided counts as trusted
        (True, {"{p}": "DO_NOT_TRUST"}, False),
        (True, {"{p}": "DO_NOT_TRUST", "{root}": "TRUST_FOLDER"}, True),  # any trust rule wins
        (True, {"{root}": "DO_NOT_TRUST"}, True),  # DO_NOT_TRUST is exact, not a subtree
        (True, {"{p}/x": "TRUST_PARENT", "{p}": "DO_NOT_TRUST"}, True),
    ],
)
def test_qwen_folder_trust_rules_match_the_cli(
    tmp_path: Path, enabled: bool | None, rules: dict[str, str], trusted: bool
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (tmp_path / ".qwen").mkdir()
    if enabled is not None:
        (tmp_path / ".qwen" / "settings.json").write_text(
            json.dumps({"security": {"folderTrust": {"enabled": enabled}}})
        )
    filled = {k.format(p=project, root=tmp_path): v for k, v in rules.items()}
    (tmp_path / ".qwen" / "trustedFolders.json").write_text(json.dumps(filled))
    env = {"HOME": str(tmp_path), "QWEN_CODE_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json")}

    assert qwen_trust(str(project), env).trusted is trusted


def test_the_real_codex_cli_writes_the_trust_bastion_reads_and_then_runs_the_project_hook(
    outside_tmp_sandbox: Sandbox,
) -> None:
    sandbox = outside_tmp_sandbox
    codex = agent_cli("codex")
    codex_home = sandbox.root / "codex-home"
    codex_home.mkdir(parents=True, exist_ok=True)
    env = codex_env(sandbox, codex_home)
    install(
        "codex",
        scope="project",
        cwd=str(sandbox.project),
        env=env,
        executable=bastion_exe(),
        out=lambda _: None,
    )
    assert codex_trust(str(sandbox.project), env).trusted is False
    script = Script("exec_command", {"cmd": f"rm -rf {sandbox.victim}"})
    with FakeModelServer(script) as server:
        (codex_home / "config.toml").write_text(
            'model = "gpt-5-codex"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
            f'name = "fake"\nbase_url = "{server.url}/v1"\nwire_api = "responses"\n'
            'env_key = "FAKE_OPENAI_KEY"\n'
        )
        done = subprocess.run(
            [
                codex,
                "exec",
                "--trust",
                "--dangerously-bypass-hook-trust",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "-C",
                str(sandbox.project),
                "do the task",
            ],
            capture_output=True,
            text=True,
            timeout=AGENT_TIMEOUT,
            stdin=subprocess.DEVNULL,
            env={**env, "FAKE_OPENAI_KEY": "sk-dummy"},
        )
    assert done.returncode == 0, done.stderr[-2000:]
    assert codex_trust(str(sandbox.project), env).trusted is True  # what Codex wrote, read back
    assert (sandbox.victim / "keep.txt").exists()  # and the now-trusted project hook denied the rm
