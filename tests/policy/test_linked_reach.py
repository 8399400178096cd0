"""What the Grep, Glob and code tools reach through the workspace (#30): a credential file of
HOME under another name (a hard link) below what code can read is a credential read, denied;
a glob lists the folder its pattern starts in, wherever a symlink or ``..`` puts it. Decided
on an in-memory file system whose files can share an inode (no I/O in the core)."""

from __future__ import annotations

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.call.effects import Effect
from bastion.configuration import load_policy_text
from bastion.policy.compiled import Policy
from bastion.policy.paths import FileId, credential_ids
from bastion.policy.tool_families import glob_start
from bastion.policy.tree import MemoryTree

HOME = "/home/me"
WS = "/home/me/work/proj"
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


class LinkedTree(MemoryTree):
    """A MemoryTree in which each group of ``same`` paths is one file with that many names."""

    def __init__(self, files: dict[str, bytes], same: tuple[tuple[str, ...], ...] = (), **kw: object) -> None:
        super().__init__(files, **kw)  # type: ignore[arg-type]
        self.same = {path: (index, len(group)) for index, group in enumerate(same) for path in group}

    def identity(self, path: str) -> FileId | None:
        if path not in self.files:
            return None
        inode, links = self.same.get(path, (hash(path), 1))
        return FileId(7, inode, links)


@pytest.fixture
def policy() -> Policy:
    return load_policy_text("", cwd=WS, env={"HOME": HOME, "BASTION_STATE_DIR": "/s"})


def _tree(*, linked: str | None = None, target: str = ".aws/credentials") -> LinkedTree:
    files = {
        f"{HOME}/.aws/credentials": b"[default]\nkey = K\n",
        f"{HOME}/.bashrc": b"# rc\n",
        f"{WS}/src/app.py": b"print(1)\n",
        f"{WS}/README.md": b"# hi\n",
    }
    same: tuple[tuple[str, ...], ...] = ()
    if linked is not None:
        files[f"{WS}/{linked}"] = files[f"{HOME}/{target}"]
        same = ((f"{HOME}/{target}", f"{WS}/{linked}"),)
    return LinkedTree(files, same, links={f"{WS}/homelink": HOME, f"{WS}/kube": f"{HOME}/.aws"})


def _code(
    policy: Policy, tree: LinkedTree, source: str = "print(1)", cwd: str = WS
) -> tuple[Decision, list[str]]:
    gate = Gate(policy, fs=tree, tree=tree, sandboxed=True)
    evaluation = gate.evaluate(ToolCall("code", {"language": "python", "source": source}, cwd=cwd))
    return evaluation.decision, [r.rule for r in evaluation.reasons if r.decision is evaluation.decision]


def test_no_credential_file_with_another_name_leaves_nothing_to_look_for(policy: Policy) -> None:
    assert credential_ids(_tree(), policy) == {}
    assert credential_ids(_tree(linked="notes.txt"), policy) == {(7, 0): f"{HOME}/.aws/credentials"}


def test_code_is_allowed_in_a_workspace_without_a_linked_credential(policy: Policy) -> None:
    assert _code(policy, _tree()) == (A, ["mode.workspace"])


@pytest.mark.parametrize("linked", ["notes.txt", "deep/down/here/db.txt", ".hidden"])
def test_code_in_a_workspace_holding_a_credential_under_another_name_is_a_credential_read(
    policy: Policy, linked: str
) -> None:
    tree = _tree(linked=linked)
    gate = Gate(policy, fs=tree, tree=tree, sandboxed=True)

    evaluation = gate.evaluate(ToolCall("code", {"language": "python", "source": "import json"}, cwd=WS))

    denied = [r for r in evaluation.reasons if r.decision is D]
    assert (evaluation.decision, [r.rule for r in denied]) == (D, ["hardline.credentials"])
    assert denied[0].matched == f"{WS}/{linked}"
    assert f"another name (a hard link) of the credential file {HOME}/.aws/credentials" in denied[0].message
    assert Effect.CREDENTIALS in evaluation.effects


def test_code_run_from_a_subfolder_still_reaches_the_whole_workspace(policy: Policy) -> None:
    assert _code(policy, _tree(linked="notes.txt"), cwd=f"{WS}/src")[0] is D


def test_code_in_a_workspace_holding_another_name_of_an_rc_file_is_left_to_the_sandbox(
    policy: Policy,
) -> None:
    """The sandbox binds that name read-only; reading an rc file is no credential read."""
    assert _code(policy, _tree(linked="scripts/env.sh", target=".bashrc")) == (A, ["mode.workspace"])


@pytest.mark.parametrize(
    ("pattern", "start"),
    [
        ("**/*.py", WS),
        ("*", WS),
        ("src/**/*.ts", f"{WS}/src"),
        ("homelink/.ssh/*", f"{WS}/homelink/.ssh"),
        ("homelink/**/*", f"{WS}/homelink"),
        ("../home/**", f"{WS}/../home"),
        ("*/../../x/*", f"{WS}/../.."),
        ("/etc/*.conf", "/etc"),
        ("/*", "/"),
        ("~/.ssh/*", "~/.ssh"),
        ("README.md", f"{WS}/README.md"),
        ("src/[ab]*.py", f"{WS}/src"),
        ("{a,b}/x", WS),
    ],
)
def test_a_glob_starts_listing_at_its_components_before_the_first_wildcard(pattern: str, start: str) -> None:
    assert glob_start(WS, pattern) == start


@pytest.mark.parametrize(
    ("pattern", "decision"),
    [
        ("**/*.py", A),
        ("src/*.py", A),
        ("homelink/.ssh/*", D),  # a symlink to HOME: the ssh folder's names
        ("kube/*", D),  # a symlink to a credential folder
        ("homelink/**/*", Q),  # HOME, outside every root: a person decides
        ("../../../**", Q),
    ],
)
def test_a_glob_is_judged_by_the_folder_its_pattern_lists(
    policy: Policy, pattern: str, decision: Decision
) -> None:
    tree = _tree()
    gate = Gate(policy, fs=tree, tree=tree, sandboxed=True)

    assert (
        gate.evaluate(ToolCall("glob", {"pattern": pattern}, cwd=WS, interactive=True)).decision is decision
    )


class CountingTree(LinkedTree):
    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.looked: list[str] = []

    def identity(self, path: str) -> FileId | None:
        self.looked.append(path)
        return super().identity(path)


@pytest.mark.parametrize(
    ("tool", "args"),
    [("grep", {"pattern": "x", "path": "."}), ("code", {"language": "python", "source": "1"})],
)
def test_with_no_credential_of_two_names_no_workspace_file_is_looked_at(
    policy: Policy, tool: str, args: dict[str, str]
) -> None:
    tree = CountingTree({f"{HOME}/.aws/credentials": b"k", **{f"{WS}/f{n}.py": b"" for n in range(50)}})

    Gate(policy, fs=tree, tree=tree, sandboxed=True).evaluate(ToolCall(tool, args, cwd=WS))

    # The search's own path is checked as any path is; no file below it is looked at.
    assert [p for p in tree.looked if p.startswith(f"{WS}/")] == []
    assert len(tree.looked) == len(set(tree.looked))  # the credential files once each
