"""``treewalk.walk``: what a recursive reader reaches, and what it costs to find out."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bastion.policy.tree import Entry, Kind, MemoryTree, OsTree
from bastion.policy.treewalk import Found, Reach, walk

FILES = {
    "/w/a/key.pem": b"k",
    "/w/a/b/notes.txt": b"n",
    "/w/c/id_rsa": b"k",
    "/elsewhere/secret.pem": b"s",
}
LINKS = {"/w/a/b/up": "/w", "/w/out": "/elsewhere"}


def _walk(follow: bool) -> tuple[list[Found], list[str]]:
    tree = MemoryTree(FILES, LINKS)
    asked: list[str] = []

    def resolve(path: str) -> str:
        asked.append(path)
        return tree.resolve(path)

    found = walk(
        Reach(tree, resolve),
        "/w",
        follow_links=follow,
        skip=lambda path, is_dir: False,
        flag=lambda path: path.endswith((".pem", "id_rsa")),
    )
    return found, asked


def test_a_walk_that_follows_no_link_finds_every_flagged_file_and_resolves_no_folder() -> None:
    found, asked = _walk(follow=False)
    assert sorted(f.path for f in found) == ["/w/a/key.pem", "/w/c/id_rsa"]
    assert asked == []


def test_a_walk_that_follows_links_reports_their_targets_and_stops_at_a_loop() -> None:
    found, asked = _walk(follow=True)
    assert sorted((f.path, f.target) for f in found) == [
        ("/w/a/b/up", "/w"),
        ("/w/a/key.pem", None),
        ("/w/c/id_rsa", None),
        ("/w/out", "/elsewhere"),
        ("/w/out/secret.pem", None),
    ]
    assert "/w/a/b/up" in asked  # the loop back to /w is seen through its resolution


def test_the_real_tree_lists_frozen_entries_equal_to_ones_built_by_hand(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "f").write_text("x")
    (tmp_path / "l").symlink_to(tmp_path / "f")
    listed = sorted(OsTree().scandir(str(tmp_path)), key=lambda e: e.name)
    assert listed == [Entry("d", Kind.DIR), Entry("f", Kind.FILE), Entry("l", Kind.LINK)]
    assert all(type(e) is Entry and hash(e) == hash(Entry(e.name, e.kind)) for e in listed)
    with pytest.raises(dataclasses.FrozenInstanceError):
        listed[0].name = "other"  # type: ignore[misc]
