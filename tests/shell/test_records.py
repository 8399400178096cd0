"""``records.builder``: a cheaper constructor that builds ordinary, frozen instances."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from bastion.call.effects import Effect
from bastion.shell.ctx import Outer, new_outer
from bastion.shell.flags import Flag, Parsed, _new_flag, _new_parsed
from bastion.shell.model import (
    Access,
    PathUse,
    SimpleCommand,
    new_command,
    new_path_use,
    replace_command,
    replace_path_use,
)
from bastion.shell.records import builder
from bastion.shell.walk_model import RawCommand, Redirect, new_raw, new_redirect
from bastion.shell.words import Word, new_word

WORD = ("a*", "a*", "a*", True, False, ("X",), False, ("y",), "a*")
PATH = ("x", Access.WRITE, "x", "redirection >", None, True, False)
COMMAND = (
    "rm x",
    ("rm", "x"),
    "rm",
    "rm",
    True,
    False,
    frozenset({Effect.DELETE}),
    (PathUse("x", Access.DELETE, "x"),),
    ("h",),
    None,
    (),
    ("sudo",),
    False,
    None,
    ("n",),
    (1,),
    None,
    (3,),
    ((1, Effect.DELETE),),
    frozenset({Effect.DELETE}),
)
CASES = [
    (Word, new_word, WORD),
    (PathUse, new_path_use, PATH),
    (SimpleCommand, new_command, COMMAND),
    (RawCommand, new_raw, ("ls", (Word("ls", "ls", "ls"),), (), (), ("in $(…)",), "command", True)),
    (Redirect, new_redirect, (">", None, Word("f", "f", "f"), "> f")),
    (Flag, _new_flag, ("-n", Word("5", "5", "5"), 1, True, "-n5")),
    (Parsed, _new_parsed, ((), (Word("a", "a", "a"),))),
]


@pytest.mark.parametrize(("cls", "build", "args"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_built_record_is_the_same_value_as_one_from_the_class(cls, build, args):
    built, plain = build(*args), cls(*args)
    assert type(built) is cls
    assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
    assert pickle.loads(pickle.dumps(built)) == plain
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, name, None)
    assert dataclasses.replace(built) == plain


@pytest.mark.parametrize(("cls", "build", "args"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_builder_fills_the_defaults_of_its_class(cls, build, args):
    required = [f for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING]
    short = args[: len(required)]
    assert build(*short) == cls(*short)


def test_an_outer_built_gets_its_own_id_source():
    a, b = new_outer(), new_outer()
    assert type(a) is Outer and a == Outer()
    assert next(a.ids) == 1 and next(a.ids) == 2 and next(b.ids) == 1


def test_builder_refuses_what_it_cannot_build_faithfully():
    @dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclass(slots=True)
    class Mutable:
        x: int

    @dataclass(frozen=True, slots=True)
    class NotInInit:
        x: int
        y: int = field(default=0, init=False)

    @dataclass(frozen=True, slots=True)
    class PostInit:
        x: int

        def __post_init__(self) -> None:
            pass

    for cls in (NoSlots, Mutable, NotInInit, PostInit):
        with pytest.raises(TypeError):
            builder(cls)


def test_a_replacer_changes_the_named_fields_as_dataclasses_replace_does():
    use = PathUse("a", Access.READ, "a", "argument of cat")
    changed = replace_path_use(use, path="/etc/a", why="moved")
    assert type(changed) is PathUse and changed == dataclasses.replace(use, path="/etc/a", why="moved")
    command = SimpleCommand(*COMMAND)
    assert replace_command(command, scope=(7,)) == dataclasses.replace(command, scope=(7,))
    with pytest.raises(TypeError):
        replace_path_use(use, nonsense=1)
