"""Real-bubblewrap fixtures. A missing bwrap skips locally and FAILS in CI (CI set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.exec import BubblewrapRunner
from tests.exec.sandbox_helpers import require_bwrap


@pytest.fixture
def runner() -> BubblewrapRunner:
    require_bwrap()
    return BubblewrapRunner()


@pytest.fixture
def child_env(home: Path) -> dict[str, str]:
    """The host environment a child may inherit: HOME is the test's."""
    return {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
