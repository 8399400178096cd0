"""Choosing a runner, and the unsafe host runner's refusal and warning."""

from __future__ import annotations

import logging

import pytest

from bastion.exec import (
    BubblewrapRunner,
    ExecConfig,
    RunSpec,
    SandboxUnavailable,
    UnsafeHostRunner,
    select,
    select_runner,
)
from tests.exec.sandbox_helpers import require_bwrap


def test_bubblewrap_is_chosen_when_it_works() -> None:
    require_bwrap()
    assert isinstance(select_runner({}), BubblewrapRunner)


def _no_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(select, "bwrap_problem", lambda: "bubblewrap ('bwrap') is not installed")


def test_a_missing_sandbox_is_an_error_with_a_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_bwrap(monkeypatch)
    with pytest.raises(SandboxUnavailable) as caught:
        select_runner({})
    assert "BASTION_ALLOW_UNSANDBOXED=1" in str(caught.value)
    assert "apt-get install bubblewrap" in caught.value.hint


def test_require_sandbox_wins_over_allow_unsandboxed(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_bwrap(monkeypatch)
    env = {"BASTION_REQUIRE_SANDBOX": "1", "BASTION_ALLOW_UNSANDBOXED": "1"}
    with pytest.raises(SandboxUnavailable, match="BASTION_REQUIRE_SANDBOX=1 requires a sandbox"):
        select_runner(env)


def test_the_unsafe_runner_is_used_only_when_explicitly_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_bwrap(monkeypatch)
    runner = select_runner({"BASTION_ALLOW_UNSANDBOXED": "1"})
    assert (type(runner), runner.sandboxed) == (UnsafeHostRunner, False)


def test_the_unsafe_runner_refuses_to_exist_without_the_variable() -> None:
    with pytest.raises(SandboxUnavailable, match="BASTION_ALLOW_UNSANDBOXED=1"):
        UnsafeHostRunner({})


def test_the_unsafe_runner_warns_on_every_run(caplog: pytest.LogCaptureFixture) -> None:
    runner = UnsafeHostRunner({"BASTION_ALLOW_UNSANDBOXED": "1"})
    spec = RunSpec(argv=("true",), cwd="/")
    with caplog.at_level(logging.WARNING, logger="bastion.exec"):
        runner.run(spec)
        runner.run(spec)
    assert [r.message.split(":")[0] for r in caplog.records] == ["UNSANDBOXED", "UNSANDBOXED"]


@pytest.mark.parametrize(
    "bad",
    [
        {"timeout": 0},
        {"max_output_bytes": 0},
        {"max_memory_mb": -1},
        {"secrets": ("not a name",)},
        {"timeout": float("nan")},
    ],
)
def test_an_invalid_exec_config_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ExecConfig(**bad)  # type: ignore[arg-type]
