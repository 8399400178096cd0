"""A fresh world per test (see ``world``): fake HOME, workspace, canary, loopback server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.containment.world import PayloadServer, World, make_world
from tests.exec.sandbox_helpers import require_bwrap


@pytest.fixture
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, PayloadServer]]:
    require_bwrap()
    yield from make_world(tmp_path_factory.mktemp("harm"))
