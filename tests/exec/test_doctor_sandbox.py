"""``bastion doctor``'s sandbox checks run a real program per runtime."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.adapters.cli.doctor_sandbox import sandbox_checks
from bastion.configuration import Configuration
from bastion.tools import detect_runtimes
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import require_bwrap


def test_every_installed_runtime_runs_through_the_sandbox(make_policy: PolicyFactory) -> None:
    require_bwrap()
    checks = sandbox_checks(Configuration(make_policy()))
    assert [(name, ok) for name, ok, _ in checks] == [
        ("credentials dir", True),
        ("sandbox", True),
        ("limit processes", True),
        ("limit memory", True),
        ("limit seccomp", True),
        ("limit nested user namespaces", True),
        ("limit /tmp size", True),
        ("runtime bash", True),
        ("runtime node", True),
        ("runtime python", True),
        ("runtime rust", True),
    ]
    installed = {f"runtime {lang}" for lang in detect_runtimes()}
    ran = {name for name, _, detail in checks if detail.startswith("ran in the sandbox")}
    assert ran == installed


def test_a_missing_sandbox_is_reported_with_how_to_fix_it(
    make_policy: PolicyFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bastion.adapters.cli.doctor_sandbox as doctor

    monkeypatch.setattr(doctor, "bwrap_problem", lambda: "bubblewrap ('bwrap') is not installed")
    checks = sandbox_checks(Configuration(make_policy()))
    assert checks[-1][:2] == ("sandbox", False)
    assert "apt-get install bubblewrap" in checks[-1][2]


def test_doctor_says_which_limits_it_cannot_enforce(monkeypatch: pytest.MonkeyPatch) -> None:
    import bastion.exec.capabilities as capabilities

    monkeypatch.setattr(capabilities.cgroups, "enforceable", lambda: {"pids": False, "memory": False})
    monkeypatch.setattr(capabilities.os, "geteuid", lambda: 0)
    checks = {name: (ok, detail) for name, ok, detail in capabilities.limit_checks(512, 4096, 0)}
    assert checks["limit processes"] == (
        False,
        "NOT enforced: no writable pids cgroup, and RLIMIT_NPROC does not hold for root; run Bastion "
        "as a normal user or give it a cgroup",
    )
    assert checks["limit memory"][0] is False
    assert capabilities.limit_checks(512, 4096, 1024)[1] == (
        "limit memory", True, "address space only (RLIMIT_AS = 1024 MiB; no memory cgroup)",
    )  # fmt: skip


def test_doctor_says_plainly_which_agents_run_calls_uncontained() -> None:
    from bastion.adapters.cli.doctor_sandbox import containment_checks

    checks = containment_checks(["claude", "codex", "gemini", "qwen"], "allowed")

    assert [(name, ok) for name, ok, _ in checks] == [
        ("contain", True),
        ("containment claude", True),
        ("containment codex", True),
        ("containment gemini", True),
        ("containment qwen", False),
    ]
    assert "runs UNCONTAINED" in checks[4][2] and "bastion launch qwen" in checks[4][2]
    assert checks[1][2] == 'allowed shell calls run in Bastion\'s sandbox ([exec] contain = "allowed")'
    assert containment_checks(["claude"], "off")[1][:2] == ("containment claude", False)


@pytest.mark.parametrize(
    ("contain", "ok", "says"),
    [
        ("all", True, "calls a person approves run contained"),
        ("allowed", True, "a call a person approves runs as written, with your full rights"),
        ("off", False, "no call runs contained"),
    ],
)
def test_doctor_names_the_contain_choice_and_what_it_means(contain: str, ok: bool, says: str) -> None:
    from bastion.adapters.cli.doctor_sandbox import containment_checks

    name, passed, detail = containment_checks([], contain)[0]

    assert (name, passed, detail.startswith(f'[exec] contain = "{contain}": '), says in detail) == (
        "contain",
        ok,
        True,
        True,
    )


def test_doctor_counts_an_agent_whose_hook_is_bastions_own_file_but_not_a_foreign_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bastion.adapters.cli.doctor_sandbox import installed_agents
    from bastion.adapters.hooks import own_file
    from bastion.agents.registry import hook_names, hooks_of

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("XDG_CONFIG_HOME", *(hooks_of(n).user_folder_env or "HOME" for n in hook_names())):
        if name != "HOME":
            monkeypatch.delenv(name, raising=False)
    for agent in ("pi", "opencode"):
        env = {"HOME": str(tmp_path / "home")}
        own_file.install(
            agent, scope="project", cwd=str(tmp_path), env=env, executable="/b", timeout=60, out=print
        )
    (tmp_path / ".pi" / "extensions" / "bastion.ts").write_text("export default function () {}\n")

    assert installed_agents() == ["opencode"]
