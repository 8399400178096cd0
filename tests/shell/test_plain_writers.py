"""A plain writer only creates, copies or moves the paths it names (mkdir, touch, cp, mv, and
a read-only ``python -m`` module's output file): an option, a wrapper or an environment that
does more, or a path only known at run time, makes it no plain writer. The policy decides the
paths (tests/policy/test_plain_writes.py)."""

from __future__ import annotations

import pytest
from helpers import analyze, only

PLAIN = [
    ("mkdir -p build", [("build", "write")]),
    ("mkdir -m 755 -v a b", [("a", "write"), ("b", "write")]),
    ("touch docs/new.md", [("docs/new.md", "write")]),
    ("touch -r README.md x", [("README.md", "read"), ("x", "write")]),
    ("cp README.md docs/README.bak", [("docs/README.bak", "write"), ("README.md", "read")]),
    ("cp -rp a b", [("b", "write"), ("a", "read")]),  # the policy looks at what a is
    ("mv a b", [("b", "write"), ("a", "delete")]),
    ("python3 -m json.tool in.json out.json", [("in.json", "read"), ("out.json", "write")]),
    ("python3 -m py_compile app/core.py", [("app/__pycache__", "write"), ("app/core.py", "read")]),
]


@pytest.mark.parametrize(("command", "paths"), PLAIN)
def test_is_a_plain_writer_of_exactly_these_paths(command: str, paths: list[tuple[str, str]]) -> None:
    c = only(command)
    assert (c.plain_writer, [(p.path, p.access.value) for p in c.paths]) == (True, paths)


NOT_PLAIN = [
    "cp -t docs a",  # -t raises the write of the folder it names
    "cp -l a b",
    "cp --symbolic-link a b",
    "cp --parents a/b c",
    "cp -b a b",
    "cp --backup=numbered a b",
    "cp -S .py a b",
    "mv -b a b",
    "mv --suffix=.py a b",
    "mkdir $D",
    "touch $(date)",
    "sudo mkdir x",
    "LD_PRELOAD=x.so touch a",
    "xargs touch",
    "cp --weird a b",
    "rm a",
    "ln -s a b",
    "chmod +x a",
    "tee a",
    "python3 -m pydoc json",
    "python3 -m py_compile",
    "python3 -m py_compile -",
    "python3 -m http.server",
]


@pytest.mark.parametrize("command", NOT_PLAIN)
def test_is_no_plain_writer(command: str) -> None:
    assert not any(c.plain_writer for c in analyze(command).commands)


@pytest.mark.parametrize(
    ("command", "imports_cwd"),
    [
        ("python3 -m json.tool a.json", True),
        ("python3 -m py_compile a.py", True),
        ("python3 -I -m json.tool a.json", False),
        ("python3 -P -m json.tool a.json", False),
        ("PYTHONSAFEPATH=1 python3 -m json.tool a.json", False),
        ("cat a.json", False),
    ],
)
def test_a_python_that_imports_from_its_folder_first_says_so(command: str, imports_cwd: bool) -> None:
    assert only(command).imports_cwd is imports_cwd
