"""The per-decision memo of the shell policy (``CallFs``, ``Reach.walked``): one call resolves
a path, decides a path verdict and walks a tree once, and the next call looks again, so a
symlink or file changed between two calls is seen by the second."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.configuration import load_policy_text
from bastion.policy.compiled import Policy
from bastion.policy.paths import CallFs, FileSystem, PathVerdict, check_path
from bastion.policy.tree import MemoryTree
from tests.shell.helpers import deciding_rules

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

ALLOWED = (Decision.ALLOW, ("mode.workspace",))
CREDENTIAL_DENY = (Decision.DENY, ("hardline.credentials", "paths.deny_read"))


def outcome(gate: Gate, call: Call, command: str) -> tuple[Decision, tuple[str, ...]]:
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, tuple(deciding_rules(evaluation))


def test_a_symlink_repointed_between_two_calls_is_judged_by_its_new_target(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    link = workspace / "notes"
    link.symlink_to(workspace / "README.md")
    gate = make_gate()
    assert outcome(gate, call, "cat notes; cat notes") == ALLOWED
    link.unlink()
    link.symlink_to(home / ".ssh" / "id_rsa")
    assert outcome(gate, call, "cat notes; cat notes") == CREDENTIAL_DENY


def test_a_tree_changed_between_two_calls_is_walked_again(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    gate = make_gate()
    command = "grep -rn TODO src | head -5; grep -rn TODO src | head -5"
    assert outcome(gate, call, command) == ALLOWED
    (workspace / "src" / ".env").write_text("SECRET=1\n")
    assert outcome(gate, call, command) == (Decision.ASK, ("hardline.credentials",))


def test_a_glob_expanded_in_one_call_is_expanded_again_in_the_next(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    gate = make_gate()
    assert outcome(gate, call, "cat *; wc -l *") == ALLOWED
    (workspace / "k").symlink_to(home / ".ssh" / "id_rsa")
    assert outcome(gate, call, "cat *; wc -l *") == CREDENTIAL_DENY


class CountingTree(MemoryTree):
    """A fake file system that counts how often each path is resolved."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.resolved: list[str] = []

    def resolve(self, path: str) -> str:
        self.resolved.append(path)
        return super().resolve(path)

    def read(self, path: str, limit: int) -> bytes:
        # A read of the file's first bytes (what a workspace file holds: secret_content) is
        # no resolution of the path policy's: the fake finds the file without counting it.
        real = MemoryTree.resolve(self, path)
        if real not in self.files:
            raise FileNotFoundError(path)
        return self.files[real][:limit]


def test_one_call_resolves_each_path_once_and_the_next_call_resolves_it_again(
    make_policy: Callable[..., object], call: Call, workspace: Path
) -> None:
    fake = CountingTree(files={f"{workspace}/a.txt": b"a"})
    gate = Gate(make_policy(), fs=fake, tree=fake)  # type: ignore[arg-type]
    assert outcome(gate, call, "cat a.txt; head a.txt; wc -l a.txt")[0] is Decision.ALLOW
    assert fake.resolved == [f"{workspace}/a.txt"]
    assert outcome(gate, call, "cat a.txt")[0] is Decision.ALLOW
    assert fake.resolved == [f"{workspace}/a.txt"] * 2


_NAMES = st.sampled_from(["a", "b", "l", "loop", "..", ".", "k", ".ssh", "id_rsa", "x"])


@settings(max_examples=200, deadline=None)
@given(
    paths=st.lists(st.lists(_NAMES, min_size=1, max_size=4).map("/".join), min_size=1, max_size=6),
    write=st.booleans(),
)
def test_a_memoised_path_verdict_is_the_verdict_the_file_system_gives(paths: list[str], write: bool) -> None:
    fake = MemoryTree(
        files={"/h/ws/a": b"", "/h/.ssh/id_rsa": b"", "/h/ws/b/x": b""},
        links={"/h/ws/l": "/h/.ssh", "/h/ws/k": "/h/.ssh/id_rsa", "/h/ws/loop": "/h/ws/loop"},
    )
    policy = load_policy_text("", cwd="/h/ws", env={"HOME": "/h", "BASTION_STATE_DIR": "/h/state"})
    memo = CallFs(fake, policy)
    for path in [*paths, *paths]:  # the second round is served by the memo
        assert _checked(policy, path, write, memo) == _checked(policy, path, write, fake)


def _checked(policy: Policy, path: str, write: bool, fs: FileSystem) -> PathVerdict | str:
    try:
        return check_path(policy, path, write=write, cwd="/h/ws", fs=fs)
    except OSError as exc:  # the fake's symlink loop: raised again, never remembered
        return f"error: {exc}"
