"""The hook tests' sandbox (a throwaway HOME, project and state dir), here too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.adapters.hooks.conftest import Sandbox, make_sandbox


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return make_sandbox(tmp_path)
