"""The git index read without git (versions 2, 3, 4, checked against ``git ls-files``), and
git commands that print committed credential files (issue 13, root cause 9)."""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy.git_index import IndexUnknown, index_paths
from tests.policy.git_repos import GIT, git

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
pytestmark = pytest.mark.skipif(GIT is None, reason="git is not installed")

NAMES = ["README.md", "a/b/c.txt", "a/b/cd.txt", "a/bb", "z", "ünï/cödé.py", "deep/" * 20 + "leaf"]


def make_repo(root: Path, names: list[str]) -> None:
    git("init", "-q", ".", cwd=root)
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    git("add", "--", *names, cwd=root)


@pytest.mark.parametrize("version", [2, 3, 4])
def test_every_index_version_lists_the_paths_git_lists(tmp_path: Path, version: int) -> None:
    make_repo(tmp_path, NAMES)
    if version == 3:
        (tmp_path / "new.txt").write_text("x")
        git("add", "-N", "new.txt", cwd=tmp_path)  # intent-to-add sets an extended flag
    git("update-index", f"--index-version={version}", cwd=tmp_path)
    data = (tmp_path / ".git" / "index").read_bytes()
    assert struct.unpack(">I", data[4:8])[0] == version
    assert index_paths(data) == git("ls-files", "-z", cwd=tmp_path).split("\0")[:-1]


def test_an_index_over_the_limit_or_damaged_is_unknown(tmp_path: Path) -> None:
    make_repo(tmp_path, NAMES)
    data = (tmp_path / ".git" / "index").read_bytes()
    with pytest.raises(IndexUnknown):
        index_paths(data, limit=3)
    for broken in (b"", b"XXXX" + data[4:], data[:40], data[:4] + struct.pack(">I", 9) + data[8:]):
        with pytest.raises(IndexUnknown):
            index_paths(broken)


def test_a_split_index_lists_only_part_of_the_tree(tmp_path: Path) -> None:
    make_repo(tmp_path, NAMES)
    git("update-index", "--split-index", cwd=tmp_path)
    with pytest.raises(IndexUnknown):
        index_paths((tmp_path / ".git" / "index").read_bytes())


def outcome(gate: Gate, call: Call, command: str) -> tuple[Decision, tuple[str, ...]]:
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, tuple(dict.fromkeys(r.rule for r in evaluation.reasons))


PRINTERS = [
    "git grep PASSWORD",
    "git log -p",
    "git log --patch -3",
    "git show",
    "git diff HEAD~1",
    "git log -U1",
]
#: Printers of the commit that added the credential print it from history: denied
#: (git_history); the others print what the index lists, or name a parent that does not exist.
HISTORY_PRINTS = {"git log -p", "git log --patch -3", "git show", "git log -U1"}


@pytest.mark.parametrize("command", PRINTERS)
def test_git_printing_committed_files_is_not_a_pure_reader_when_a_credential_is_committed(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    make_repo(workspace, ["README.md", "config/.env.production"])
    git("commit", "-qm", "x", cwd=workspace)
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, list(dict.fromkeys(r.rule for r in evaluation.reasons))) == (
        Decision.DENY if command in HISTORY_PRINTS else Decision.ASK,
        ["hardline.credentials"],
    )
    assert evaluation.reasons[0].matched == str(workspace / "config" / ".env.production")


@pytest.mark.parametrize("command", [*PRINTERS, "git log --oneline", "git status"])
def test_git_stays_a_reader_when_nothing_committed_is_a_credential(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    make_repo(workspace, ["README.md", "src/env.py"])
    git("commit", "-qm", "x", cwd=workspace)
    assert outcome(make_gate(), call, command) == (Decision.ALLOW, ("mode.workspace",))


def test_listing_history_without_patches_does_not_read_the_index(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    make_repo(workspace, [".env"])
    git("commit", "-qm", "x", cwd=workspace)
    gate = make_gate()
    assert outcome(gate, call, "git log --oneline") == (Decision.ALLOW, ("mode.workspace",))
    assert outcome(gate, call, "git log -p") == (Decision.DENY, ("hardline.credentials",))


def test_a_sha256_repository_index_is_read_with_its_longer_object_ids(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    git("init", "-q", "--object-format=sha256", ".", cwd=workspace)
    for name in ("a.txt", "deploy/id_rsa"):
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(name)
    git("add", "a.txt", "deploy/id_rsa", cwd=workspace)
    data = (workspace / ".git" / "index").read_bytes()
    assert index_paths(data, oid_size=32) == ["a.txt", "deploy/id_rsa"]
    assert outcome(make_gate(), call, "git grep x") == (Decision.ASK, ("hardline.credentials",))


@pytest.mark.parametrize(
    "command",
    ["git show HEAD:.env", "git show HEAD~0:deploy/id_rsa", "git cat-file -p HEAD:.env", "git log -p -- .env",
     "git diff HEAD -- x.pem", "git grep KEY HEAD -- .npmrc"],
)  # fmt: skip
def test_a_credential_named_on_the_command_line_is_printed_from_history_and_asks(
    make_gate: GateFactory, call: Call, workspace: Path, command: str
) -> None:
    make_repo(workspace, ["README.md"])  # the index lists no credential: history may
    git("commit", "-qm", "x", cwd=workspace)
    evaluation = make_gate().evaluate(call("shell", command=command))
    # ASK at least: a credential named as a path argument is read (DENY) where the tables know it
    assert evaluation.decision >= Decision.ASK
    assert {r.rule for r in evaluation.reasons} >= {"hardline.credentials"}


@pytest.mark.parametrize("command", ["git diff", "git grep -n password", "git -C dotfiles diff HEAD"])
def test_a_repository_whose_work_tree_is_home_prints_its_credential_stores_and_is_denied(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path, command: str
) -> None:
    """core.worktree = HOME: the index lists ~/.netrc, and git diff/grep print HOME's file
    (issue 31): a credential read outside the workspace, denied like ``cat ~/.netrc``."""
    repo = workspace / "dotfiles"
    repo.mkdir()
    make_repo(repo, [".netrc", "README.md"])
    git("commit", "-qm", "x", cwd=repo)
    (repo / ".netrc").unlink()
    git("config", "core.worktree", str(home), cwd=repo)
    cwd = str(repo) if not command.startswith("git -C") else str(workspace)
    evaluation = make_gate().evaluate(call("shell", command=command, cwd=cwd))
    denied = [r for r in evaluation.reasons if r.decision is Decision.DENY]
    assert (evaluation.decision, [(r.rule, r.matched) for r in denied]) == (
        Decision.DENY,
        [("hardline.credentials", str(home / ".netrc"))],
    )
