"""``treewalk.walk``: what a recursive reader reaches, and what it costs to find out."""

from __future__ import annotations

from bastion.policy.tree import MemoryTree
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
