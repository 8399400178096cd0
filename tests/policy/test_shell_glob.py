"""Glob expansion as bash does it (checked against bash itself), through the Tree port."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion.policy.paths import OsFileSystem
from bastion.policy.shell_glob import GlobSyntax, expand, has_magic, translate, unescape
from bastion.policy.tree import MemoryTree, OsTree
from bastion.policy.treewalk import OverBudget, Reach

BASH = shutil.which("bash")
NAMES = ["a", "b", "ab", "a.txt", "b.md", ".hidden", ".env", "[x]", "q?", "-dash", "dir/x", "dir/.y",
         "dir/sub/z.txt", "other/x", "other/ab"]  # fmt: skip


@pytest.fixture
def tree_dir(tmp_path: Path) -> Path:
    for name in NAMES:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    (tmp_path / "link").symlink_to(tmp_path / "dir")
    (tmp_path / "dangling").symlink_to(tmp_path / "missing")
    return tmp_path


def reach(budget: int = 20_000) -> Reach:
    return Reach(OsTree(), OsFileSystem().resolve, budget=budget)


def ours(pattern: str, cwd: Path) -> list[str]:
    found = expand(reach(), pattern, cwd=str(cwd), home="/nonexistent-home")
    return sorted(found.matches or (found.literal,))


def bash(pattern: str, cwd: Path) -> list[str]:
    # globskipdots off: ".*" also matches "." and "..", as older bash and dash do.
    script = f"shopt -u globskipdots 2>/dev/null; printf '%s\\0' {pattern}"
    run = subprocess.run(
        [str(BASH), "--norc", "--noprofile", "-c", script], cwd=cwd, capture_output=True, check=True
    )
    return sorted(run.stdout.decode().split("\0")[:-1])


CASES = ["*", "?", "a*", "*.txt", ".*", ".e*", "*/", "*/x", "d*/*", "*/*/*.txt", "[ab]", "[!a]*", "[a-b]*",
         "\\[x]", "q\\?", "[[]x]", "**", "**/*.txt", "link/*", "dir/.*", "nomatch*", "dir/nomatch*",
         "*/sub", "l*/sub/*", "dang*", "[]x]*", "[!]]", "*[[:alpha:]]", "a\\*", "./*.md", "../*/a*"]  # fmt: skip


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
@pytest.mark.parametrize("pattern", CASES)
def test_a_glob_expands_to_exactly_what_bash_expands_it_to(tree_dir: Path, pattern: str) -> None:
    assert ours(pattern, tree_dir) == bash(pattern, tree_dir)


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(["*", "?", "a", "b", ".", "x", "[ab]", "[!a]", "/", "d", "\\*", "t"]),
                      min_size=1, max_size=6))  # fmt: skip
def test_generated_globs_expand_as_bash_expands_them(tree_dir: Path, parts: list[str]) -> None:
    pattern = "".join(parts)
    if pattern.startswith("/") or "//" in pattern:
        pattern = pattern.lstrip("/").replace("//", "/") or "*"
    if not has_magic(pattern.split("/")[-1]) and not any(has_magic(p) for p in pattern.split("/")):
        return  # not a glob: the classifier never hands the policy a pattern for it
    assert ours(pattern, tree_dir) == bash(pattern, tree_dir), pattern


def test_tilde_and_absolute_patterns_keep_their_spelling(tree_dir: Path) -> None:
    found = expand(reach(), "~/a*", cwd="/", home=str(tree_dir))
    assert sorted(found.matches) == [f"{tree_dir}/a", f"{tree_dir}/a.txt", f"{tree_dir}/ab"]
    assert sorted(expand(reach(), f"{tree_dir}/o*/a?", cwd="/", home="/").matches) == [f"{tree_dir}/other/ab"]


def test_an_expansion_over_the_budget_raises(tree_dir: Path) -> None:
    with pytest.raises(OverBudget):
        expand(reach(budget=5), "*/*", cwd=str(tree_dir), home="/")


def test_an_unknown_character_class_is_refused_not_guessed() -> None:
    with pytest.raises(GlobSyntax):
        translate("[[:nonsense:]]")


def test_the_helpers_see_escapes() -> None:
    assert (has_magic("a\\*"), has_magic("a*"), has_magic("[x"), unescape("a\\*\\\\")) == (
        False,
        True,
        False,
        "a*\\",
    )


def test_the_fake_tree_expands_like_the_real_one(tree_dir: Path) -> None:
    files = {}
    for root, _dirs, names in os.walk(tree_dir):
        for name in names:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                files[path] = b""
    fake = MemoryTree(files=files, links={f"{tree_dir}/link": f"{tree_dir}/dir"})
    fake_reach = Reach(fake, fake.resolve)
    for pattern in ("*", "*/", "l*/*", ".*", "*/*"):
        real = {m for m in expand(reach(), pattern, cwd=str(tree_dir), home="/").matches} - {"dangling"}
        fake_matches = set(expand(fake_reach, pattern, cwd=str(tree_dir), home="/").matches)
        assert fake_matches == real, pattern
