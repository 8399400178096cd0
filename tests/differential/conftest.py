"""The live oracle: one fixture template and gate for the session, or a clear failure in CI
when the sandbox tools are missing (locally, without them, the live tests skip)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.differential.oracle import sandbox
from tests.differential.oracle.run import Oracle


def require_sandbox() -> None:
    missing = sandbox.missing_tools()
    if not missing:
        return
    message = f"the differential oracle needs {' and '.join(missing)} (Debian packages bubblewrap, strace; see .ci/run)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def oracle() -> Iterator[Oracle]:
    require_sandbox()
    built = Oracle()
    try:
        yield built
    finally:
        built.close()
