"""jq programs are read token by token (#31): a directive inside a string or a comment is
none, a field or object key named ``import`` is none, and a directive whose path or search
is not a constant is unknown, never harmless."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.shell.jqscript import Directive, Modules, modules


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (".a", Modules()),
        ('.import, .include, {import: 1, "include": 2}', Modules()),
        ('"import \\"x\\" as $c;" # import "y" as $z;', Modules()),
        ('"\\(1 + ("import" | length))"', Modules()),
        ('import "config" as $c; $c', Modules((Directive("config", True),))),
        ('import "m" as m; m::f', Modules((Directive("m", False),))),
        ('include "lib/util"; f', Modules((Directive("lib/util", False),))),
        (
            'import "config" as $c {search: "~/.docker"}; $c',
            Modules((Directive("config", True, ("~/.docker",)),)),
        ),
        (
            'import "c" as $c {"search": ["./a", "../../.config/gcloud"], x: {y: 1}}; $c',
            Modules((Directive("c", True, ("./a", "../../.config/gcloud")),)),
        ),
        (
            '# a comment\nimport "a" as $a;\ninclude "b" {search: "lib"};\n$a',
            Modules((Directive("a", True), Directive("b", False, ("lib",)))),
        ),
        ('import "\\(env.X)" as $c; $c', Modules((), "jq import of a path built at run time")),
        ('import "c" as $c {search: $ENV.D}; $c', Modules((), "jq module search path is not a constant")),
        (
            'import "c" as $c {search: ["a", env.D]}; $c',
            Modules((), "jq module search path is not a constant"),
        ),
        ("import x as $c; $c", Modules((), "jq import of a path that is not a string")),
        ('"config" | modulemeta', Modules((), "modulemeta loads a module named at run time")),
        ('import "c" as $c', Modules((), "jq import not ended by ';'")),
    ],
)
def test_a_programs_directives_are_read_as_jq_reads_them(program: str, expected: Modules) -> None:
    assert modules(program) == expected


@pytest.mark.parametrize("program", ['"unterminated', '"\\(.a"', '"bad \\q escape"'])
def test_a_program_the_lexer_cannot_follow_is_unknown(program: str) -> None:
    assert modules(program) is None


@given(st.text(max_size=40))
def test_a_directive_hidden_in_any_string_is_none(text: str) -> None:
    program = json.dumps(f'import "{text}" as $c; {text}') + " | length"

    assert modules(program) == Modules()


@given(
    st.sampled_from(["config", "a/b", "../x"]),
    st.lists(st.sampled_from(["~/.docker", "../..", "lib"]), max_size=3),
)
def test_a_constant_search_path_is_read_whole(path: str, search: list[str]) -> None:
    meta = f" {{search: {json.dumps(search)}}}" if search else ""

    assert modules(f"import {json.dumps(path)} as $d{meta}; $d") == Modules(
        (Directive(path, True, tuple(search)),)
    )
