"""A path only known at run time that a file lists carries that file (``PathUse.listed_in``),
so the policy can read the list: xargs's ``-a`` file or its own ``<`` redirection (which
wins over a pipe), an option that names a list (``--files0-from``), awk's ``getline < $0``
over its input files."""

from __future__ import annotations

import pytest
from helpers import only

from bastion.shell.analysis import analyze


@pytest.mark.parametrize(
    ("command", "listed"),
    [
        ("xargs -a list.txt cat", ["list.txt"]),
        ("xargs cat < list.txt", ["list.txt"]),
        ("echo x | xargs cat < list.txt", ["list.txt"]),
        ("sort --files0-from=l0", ["l0"]),
        ("wc -l --files0-from l0", ["l0"]),
        ("du --files0-from=l0", ["l0"]),
        ("awk '{getline l < $0; print l}' a.lst b.lst", ["a.lst", "b.lst"]),
        ("awk '{getline l < $1}' v=1 a.lst -", ["a.lst"]),
        ("tar -czf x.tgz -T list.txt", ["list.txt"]),
        ("tar -cf x.tar -T - < list.txt", []),  # its stdin: not a file it names
        ("rsync -a --files-from=list.txt . host:/x", ["list.txt"]),
        ("cat $(cat list.txt)", ["list.txt"]),
        ('wc -l "$(< list.txt)"', ["list.txt"]),
        ("cat $(cat list.txt | head -1)", []),
        ("xargs cat", []),  # stdin: nothing to read
        ("git ls-files | xargs cat", []),  # fed below a folder instead (shell/feeds.py)
    ],
)
def test_a_path_a_file_lists_names_that_file(command: str, listed: list[str]) -> None:
    found = [u.listed_in for c in analyze(command).commands for u in c.paths if u.listed_in is not None]
    assert found == listed


def test_the_list_file_itself_is_read_too() -> None:
    uses = [(u.path, u.access.value, u.listed_in) for u in only("xargs -a list.txt cat").paths]
    assert uses == [("list.txt", "read", None), (None, "read", "list.txt")]
