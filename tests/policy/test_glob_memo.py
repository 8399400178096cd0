"""Every policy build compiles the built-in tables' globs (hardline, later code, agents'
files): more patterns than ``re``'s own 512-entry cache holds, so the globs keep a memo of
their own and a second build compiles none of them again."""

from __future__ import annotations

from collections.abc import Callable

from bastion import Gate
from bastion.policy import globs


def test_a_second_policy_build_compiles_no_pattern_again(make_gate: Callable[..., Gate]) -> None:
    make_gate()
    before = globs._regex.cache_info()
    make_gate()
    after = globs._regex.cache_info()
    assert (after.misses - before.misses, after.hits - before.hits > 500) == (0, True)
