"""Without bubblewrap or strace the live oracle fails in CI and skips elsewhere."""

from __future__ import annotations

import pytest

from tests.differential import conftest
from tests.differential.oracle import sandbox


def test_missing_sandbox_tools_fail_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "missing_tools", lambda: ["strace"])
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="needs strace"):
        conftest.require_sandbox()


def test_missing_sandbox_tools_skip_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "missing_tools", lambda: ["bwrap", "strace"])
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs bwrap and strace"):
        conftest.require_sandbox()
