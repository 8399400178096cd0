"""PostgreSQL for the tests: a throwaway cluster for the session, a fresh database per test.

``BASTION_TEST_POSTGRES_URL`` (an admin URL to a running server) is used when set;
otherwise a cluster is started from Debian's ``postgresql`` package. When neither works the
tests skip locally, and FAIL under CI (``CI=true``): a missing database must not pass.

``stores`` is parametrised over both backends, so the same behaviour test runs on SQLite
and PostgreSQL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.postgres import migrations
from bastion.state import Stores, open_stores
from tests.postgres.cluster import Cluster, create_database, drop_database, start_cluster

ENV_URL = "BASTION_TEST_POSTGRES_URL"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unavailable(why: str) -> None:
    if in_ci():
        pytest.fail(f"PostgreSQL is required in CI: {why}", pytrace=False)
    pytest.skip(f"PostgreSQL unavailable: {why}")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster | None]:
    """Our own cluster (None when an external server is configured instead)."""
    if os.environ.get(ENV_URL):
        yield None
        return
    try:
        cluster = start_cluster()
    except (FileNotFoundError, RuntimeError, OSError) as exc:
        unavailable(str(exc))
        return
    yield cluster
    cluster.destroy()


@pytest.fixture(scope="session")
def pg_admin_url(pg_cluster: Cluster | None) -> str:
    return os.environ.get(ENV_URL) or (pg_cluster.url if pg_cluster else "")


@pytest.fixture
def pg_empty_url(pg_admin_url: str) -> Iterator[str]:
    """A fresh database with no schema."""
    url = create_database(pg_admin_url)
    yield url
    drop_database(pg_admin_url, url)


@pytest.fixture
def pg_url(pg_empty_url: str) -> str:
    """A fresh database at the current schema version."""
    migrations.upgrade(pg_empty_url)
    return pg_empty_url


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A private cluster a test may stop and restart (never the shared one)."""
    try:
        cluster = start_cluster()
    except (FileNotFoundError, RuntimeError, OSError) as exc:
        unavailable(str(exc))
        raise
    yield cluster
    cluster.destroy()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def location(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str | None, str]:
    """(state_url, state_dir) for the backend under test."""
    state_dir = str(tmp_path / "state")
    if backend == "sqlite":
        return None, state_dir
    return request.getfixturevalue("pg_url"), state_dir


@pytest.fixture
def stores(location: tuple[str | None, str]) -> Iterator[Stores]:
    opened = open_stores(*location)
    yield opened
    opened.close()


@pytest.fixture
def other_stores(location: tuple[str | None, str]) -> Iterator[Stores]:
    """A second, independent opening of the same state (as another daemon would have)."""
    opened = open_stores(*location)
    yield opened
    opened.close()
