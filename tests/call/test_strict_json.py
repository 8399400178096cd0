"""``strict_json.loads``: one reading of what an agent sends, whatever its shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.call.strict_json import MAX_DEPTH, depth_of, loads
from bastion.errors import CallError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab[{}]"\\', max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text("xyz[{", max_size=3), inner, max_size=3)
    ),
    max_leaves=40,
)


def _nested(depth: int, kind: str) -> str:
    return ("[" * depth + "]" * depth) if kind == "list" else ('{"a":' * depth + "1" + "}" * depth)


@pytest.mark.parametrize("kind", ["list", "object"])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_nesting_up_to_the_limit_loads_and_one_level_more_is_an_input_error(
    kind: str, as_bytes: bool
) -> None:
    fits, deeper = _nested(MAX_DEPTH, kind), _nested(MAX_DEPTH + 1, kind)
    assert depth_of(loads(fits.encode() if as_bytes else fits)) == MAX_DEPTH
    with pytest.raises(CallError, match="nested deeper than 64 levels"):
        loads(deeper.encode() if as_bytes else deeper)


def test_a_utf16_text_nested_too_deep_is_refused_too() -> None:
    with pytest.raises(CallError, match="nested deeper"):
        loads(_nested(MAX_DEPTH + 1, "list").encode("utf-16"))


@settings(max_examples=300, deadline=None)
@given(value=json_values, depth=st.integers(0, 80))
def test_loads_reads_any_json_as_json_does_and_refuses_exactly_what_nests_too_deep(
    value: Any, depth: int
) -> None:
    text = "[" * depth + json.dumps(value) + "]" * depth
    expected = json.loads(text)
    if depth_of(expected) > MAX_DEPTH:
        with pytest.raises(CallError, match="nested deeper"):
            loads(text)
    else:
        assert loads(text) == expected


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=6))
def test_an_object_with_a_key_given_twice_is_refused_naming_the_key(keys: list[str]) -> None:
    text = "{" + ",".join(f'"{k}": {i}' for i, k in enumerate(keys)) + "}"
    repeated = next((k for i, k in enumerate(keys) if k in keys[:i]), None)
    if repeated is None:
        assert loads(text) == {k: i for i, k in enumerate(keys)}
    else:
        with pytest.raises(CallError, match=f"duplicate key '{repeated}'"):
            loads(text)
