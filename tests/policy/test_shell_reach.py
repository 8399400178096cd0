"""The pieces the shell policy uses to see what a command reaches: which programs read
recursively and follow which links, the tree walk, destructive targets, the fake tree."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.configuration import load_policy_text
from bastion.policy.compiled import Policy
from bastion.policy.decision import Reason
from bastion.policy.paths import check_path
from bastion.policy.recursive_readers import Follow, Recursion, recursion_of
from bastion.policy.shell_policy import decide_analysis
from bastion.policy.shell_reach import destructive_target, wildcard_parent
from bastion.policy.tree import Kind, MemoryTree
from bastion.policy.treewalk import Found, OverBudget, Reach, walk
from bastion.policy.verdict import Assembly
from bastion.shell.analysis import analyze
from bastion.shell.model import Access, PathUse, ShellAnalysis

TABLE: list[tuple[str, Recursion | None]] = [
    ("grep -rn x .", Recursion(Follow.COMMAND_LINE)),
    ("grep -nr x", Recursion(Follow.COMMAND_LINE)),
    ("grep --recursive x", Recursion(Follow.COMMAND_LINE)),
    ("grep -R x .", Recursion(Follow.ALL)),
    ("grep -inR x .", Recursion(Follow.ALL)),
    ("grep --dereference-recursive x", Recursion(Follow.ALL)),
    ("grep -e -r x f", None),  # -r is the pattern here
    ("grep -n x f", None),
    ("egrep -r x .", Recursion(Follow.COMMAND_LINE)),
    ("rg x", Recursion(Follow.NONE, hidden=False)),
    ("rg --hidden x", Recursion(Follow.NONE, hidden=True)),
    ("rg -uu x", Recursion(Follow.NONE, hidden=True)),
    ("rg -u -u x", Recursion(Follow.NONE, hidden=True)),
    ("rg -u x", Recursion(Follow.NONE, hidden=False)),
    ("rg -L x", Recursion(Follow.ALL, hidden=False)),
    ("rg --follow -. x", Recursion(Follow.ALL, hidden=True)),
    ("find . -name x", Recursion(Follow.NONE, content=False)),
    ("find -L . -name x", Recursion(Follow.ALL, content=False)),
    ("find -H . -name x", Recursion(Follow.COMMAND_LINE, content=False)),
    ("find . -follow", Recursion(Follow.ALL, content=False)),
    ("find . -exec cat {} +", Recursion(Follow.NONE, content=True)),
    ("tar czf x.tgz src", Recursion(Follow.NONE, default_start=False)),
    ("tar -chf x.tar src", Recursion(Follow.ALL, default_start=False)),
    ("tar chf x.tar src", Recursion(Follow.ALL, default_start=False)),
    ("tar --create -f x.tar src", Recursion(Follow.NONE, default_start=False)),
    ("tar xzf x.tgz", None),
    ("ag x", Recursion(Follow.NONE, hidden=False)),
    ("ack --follow x", Recursion(Follow.ALL, hidden=True)),
    ("cat -r x", None),
    ("zip -r out.zip src", Recursion(Follow.ALL, default_start=False)),
    ("zip -ry out.zip src", Recursion(Follow.NONE, default_start=False)),
    ("zip -r --symlinks out.zip src", Recursion(Follow.NONE, default_start=False)),
    ("zip out.zip a b", None),
]


@pytest.mark.parametrize(("command", "expected"), TABLE)
def test_recursive_readers_and_what_they_follow_are_known(command: str, expected: Recursion | None) -> None:
    (cmd,) = [c for c in analyze(command).commands if c.argv[0] == command.split()[0]]
    assert recursion_of(cmd) == expected


def tree() -> MemoryTree:
    return MemoryTree(
        files={
            "/ws/a.py": b"",
            "/ws/.env": b"",
            "/ws/sub/.env.local": b"",
            "/ws/.git/HEAD": b"",
            "/h/key": b"",
        },
        links={"/ws/out": "/h", "/ws/self": "/ws", "/ws/.git/planted": "/h/key"},
    )


def reach_of(fake: MemoryTree, budget: int = 1000) -> Reach:
    return Reach(fake, fake.resolve, budget=budget)


def names(found: list[Found]) -> list[tuple[str, str | None]]:
    return sorted((f.path, f.target) for f in found)


def keep_all(path: str, is_dir: bool) -> bool:
    return False


def skip_hidden(path: str, is_dir: bool) -> bool:
    return path.rsplit("/", 1)[1].startswith(".")


def test_the_walk_reports_flagged_files_and_leaves_out_what_skip_says() -> None:
    def flagged(path: str) -> bool:
        return path.rsplit("/", 1)[1].startswith(".env")

    assert names(walk(reach_of(tree()), "/ws", follow_links=False, skip=keep_all, flag=flagged)) == [
        ("/ws/.env", None),
        ("/ws/sub/.env.local", None),
    ]
    assert walk(reach_of(tree()), "/ws", follow_links=False, skip=skip_hidden, flag=flagged) == []


def test_a_following_walk_reports_every_link_once_and_looks_inside_git() -> None:
    found = walk(reach_of(tree()), "/ws", follow_links=True, skip=keep_all, flag=lambda p: False)
    assert names(found) == [("/ws/.git/planted", "/h/key"), ("/ws/out", "/h"), ("/ws/self", "/ws")]


def test_the_walk_stops_at_the_budget() -> None:
    with pytest.raises(OverBudget) as caught:
        walk(reach_of(MemoryTree(huge={"/ws/big": 50}), budget=10), "/ws", follow_links=False, skip=keep_all,
             flag=lambda p: False)  # fmt: skip
    assert caught.value.where == "/ws/big"


def test_the_fake_tree_resolves_like_the_kernel() -> None:
    fake = tree()
    assert fake.resolve("/ws/out/key") == "/h/key"
    assert fake.resolve("/ws/out/../ws/a.py") == "/ws/a.py"
    assert fake.resolve("/ws/self/self/a.py") == "/ws/a.py"
    assert (fake.kind("/ws/out", follow=False), fake.kind("/ws/out", follow=True)) == (Kind.LINK, Kind.DIR)
    assert fake.kind("/ws/missing", follow=True) is Kind.MISSING
    assert fake.read("/ws/out/key", 10) == b""
    with pytest.raises(OSError):
        MemoryTree(links={"/a": "/b", "/b": "/a"}).resolve("/a/x")


@pytest.fixture
def policy() -> Policy:
    return load_policy_text("", cwd="/home/me/work/proj", env={"HOME": "/home/me", "BASTION_STATE_DIR": "/s"})


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/", "the root directory"),
        ("/home/me", "the home directory /home/me"),
        ("/home/me/", "the home directory /home/me"),
        ("/etc", "system directory /etc"),
        ("/usr/lib", "system directory /usr/lib"),
        ("/home/me/work", "/home/me/work, an ancestor of /home/me/work/proj"),
        ("/home", "system directory /home"),
        ("/home/me/work/proj", None),
        ("/home/me/work/proj/build", None),
        ("/home/me/other", None),
        ("/tmp/x", None),
    ],
)
def test_destructive_targets_are_root_home_system_and_workspace_ancestors(
    policy: Policy, path: str, why: str | None
) -> None:
    verdict = check_path(policy, path, write=True, cwd="/home/me/work/proj", fs=MemoryTree())
    assert destructive_target(policy, verdict) == why


def test_a_symlink_to_the_home_is_judged_by_its_target(policy: Policy) -> None:
    fake = MemoryTree(links={"/home/me/work/proj/hk": "/home/me"})
    verdict = check_path(policy, "hk", write=True, cwd="/home/me/work/proj", fs=fake)
    assert (verdict.decision, destructive_target(policy, verdict)) == (None, "the home directory /home/me")


@pytest.mark.parametrize(
    ("pattern", "parent"),
    [("/home/me/*", "/home/me"), ("*", "."), ("../.*", ".."), ("/*", "/"), ("src/*.py", None), ("a?", None)],
)
def test_a_whole_folder_glob_names_the_folder_it_empties(pattern: str, parent: str | None) -> None:
    assert wildcard_parent(PathUse(None, Access.DELETE, pattern, pattern=pattern)) == parent


def test_a_path_use_marked_recursive_is_walked_even_for_a_program_the_table_does_not_know(
    tmp_path: Path,
) -> None:
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / ".env").write_text("S=1")
    (tmp_path / "other.txt").write_text("x")
    policy = load_policy_text("", cwd=str(tmp_path), env={"HOME": "/nonexistent", "BASTION_STATE_DIR": "/s"})
    gate = Gate(policy)
    analysis = analyze("cat tree other.txt")
    (cmd,) = analysis.commands
    marked = replace(cmd, paths=(replace(cmd.paths[0], recursive=True), cmd.paths[1]))

    def decide(shell: ShellAnalysis) -> tuple[Decision, list[str]]:
        out = Assembly(approval_default=Reason(Decision.ASK, "approval.x", "built-in", "", ""))
        decide_analysis(gate.context, ToolCall("shell", {"command": "x"}, cwd=str(tmp_path)), out, shell)
        evaluation = out.finish()
        return evaluation.decision, [r.rule for r in evaluation.reasons]

    assert decide(analysis) == (Decision.ALLOW, ["mode.workspace"])
    assert decide(replace(analysis, commands=(marked,))) == (Decision.ASK, ["hardline.credentials"])
