"""``control_of``: which paths decide what a repository runs, as a property over generated
paths in a real tree (a bare repository, a look-alike folder, a ``.hg``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion.policy.paths import OsFileSystem
from bastion.policy.repositories import GIT_CONTROL, HG_CONTROL, control_of
from bastion.policy.tree import OsTree
from bastion.policy.treewalk import Reach

GIT = shutil.which("git")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bare ``data/y``, a look-alike ``notes`` (HEAD and refs, no objects), a ``.hg``."""
    if GIT is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("repos")
    (root / "data").mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(root), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run([GIT, "init", "-q", "--bare", "y"], cwd=root / "data", check=True, env=env)
    (root / "notes" / "refs").mkdir(parents=True)
    (root / "notes" / "HEAD").write_text("a heading\n")
    (root / ".hg").mkdir()
    return root


NAMES = st.sampled_from(["config", "hooks", "info", "config.worktree", "objects", "refs", "HEAD", "x",
                         "description", "hgrc", "hgrc-not-shared", "sub"])  # fmt: skip
FOLDERS = st.sampled_from(["data/y", "notes", ".hg", "src", "data"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=FOLDERS, parts=st.lists(NAMES, min_size=1, max_size=3))
def test_a_path_is_control_state_exactly_when_its_part_below_a_repository_is(
    tree: Path, folder: str, parts: list[str]
) -> None:
    root = tree
    path = "/".join([str(root), folder, *parts])
    reach = Reach(OsTree(), OsFileSystem().resolve)

    found = control_of(reach, path, str(root))

    first = parts[0]
    expected = (folder == "data/y" and first in GIT_CONTROL) or (folder == ".hg" and first in HG_CONTROL)
    # A deeper part can only be control state of a repository inside the tree: there is none.
    assert (found is not None, found.repository if found else None) == (
        expected,
        f"{root}/{folder}" if expected else None,
    )
