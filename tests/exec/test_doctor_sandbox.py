"""``bastion doctor``'s sandbox checks run a real program per runtime."""

from __future__ import annotations

import pytest

from bastion.adapters.cli.doctor_sandbox import sandbox_checks
from bastion.tools import detect_runtimes
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import require_bwrap


def test_every_installed_runtime_runs_through_the_sandbox(make_policy: PolicyFactory) -> None:
    require_bwrap()
    checks = sandbox_checks(make_policy())
    assert [(name, ok) for name, ok, _ in checks] == [
        ("credentials dir", True),
        ("sandbox", True),
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
    checks = sandbox_checks(make_policy())
    assert checks[-1][:2] == ("sandbox", False)
    assert "apt-get install bubblewrap" in checks[-1][2]
