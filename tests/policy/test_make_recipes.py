"""The shell lines ``make TARGET`` runs, read from a Makefile as GNU make writes rules down."""

from __future__ import annotations

import pytest

from bastion.policy.make_recipes import recipes

MAKEFILE = """\
# the first ordinary target is make's goal
CC := cc
VERSION != git describe
all: build docs

build: | out
\t@echo building $$HOME
\t$(CC) -o out/x x.c \\
\t  -O2

out:
\t-mkdir -p out

docs: ; +sphinx-build docs out/docs

dump: prep
\tcat config/prod.yml

prep:
\ttouch .prep

%.o: %.c
\tcc -c $<

.PHONY: all dump
loop: loop
\techo again
"""


@pytest.mark.parametrize(
    ("targets", "expected"),
    [
        ([], "echo building $HOME\n$(CC) -o out/x x.c  \t  -O2\nmkdir -p out\nsphinx-build docs out/docs"),
        (["dump"], "cat config/prod.yml\ntouch .prep"),
        (["docs", "prep"], "sphinx-build docs out/docs\ntouch .prep"),
        (["loop"], "echo again"),
        (["missing"], ""),
    ],
)
def test_the_recipes_of_the_goals_and_their_prerequisites_are_the_shell_text_make_runs(
    targets: list[str], expected: str
) -> None:
    assert recipes(MAKEFILE, targets) == expected


def test_a_makefile_of_assignments_and_patterns_only_runs_nothing_by_default() -> None:
    assert recipes("X = 1\n%.o: %.c\n\tcc -c $<\n.PHONY: x\n", []) == ""
