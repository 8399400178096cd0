"""The fixed sandboxes the checked-in agent sessions ran in (``make_fixtures.py``): the
replay tests decide those transcripts against the real file system at the same paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.evidence.make_fixtures import ensure_sandbox


@pytest.fixture(scope="session")
def fixed_sandboxes() -> None:
    for agent in ("claude", "codex"):
        ensure_sandbox(Path(f"/var/tmp/bastion-evidence-{agent}"))
