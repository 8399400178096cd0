"""The validator: any dimension looser than the ceiling rejects the mapping."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.launch.validate import DIMENSIONS, Permissions, check

permissions = st.builds(
    Permissions,
    st.sampled_from(("ask_every_action", "ask_for_risky", "never_ask")),
    st.sampled_from(("read_only", "workspace_write", "unrestricted")),
    st.sampled_from(("denied", "allowed")),
)


def _looser(a: Permissions, b: Permissions) -> list[str]:
    return [name for name, order in DIMENSIONS if order[getattr(a, name)] > order[getattr(b, name)]]


@given(permissions, permissions)
def test_the_validator_rejects_every_mapping_looser_in_any_dimension(
    effective: Permissions, ceiling: Permissions
) -> None:
    verdict = check(effective, ceiling)
    assert [v.split(":")[0] for v in verdict.violations] == _looser(effective, ceiling)
    assert verdict.ok == (effective.meet(ceiling) == effective)


@given(permissions, permissions)
def test_meeting_a_ceiling_never_raises_it(a: Permissions, b: Permissions) -> None:
    met = a.meet(b)
    assert check(met, a).ok and check(met, b).ok


def test_a_ceiling_is_parsed_from_the_command_line_and_bad_values_are_named() -> None:
    assert Permissions.parse("never_ask, read_only ,denied") == Permissions(
        "never_ask", "read_only", "denied")
    with pytest.raises(ValueError, match="network must be one of denied, allowed, not 'off'"):
        Permissions.parse("never_ask,read_only,off")
    with pytest.raises(ValueError, match="APPROVAL,FILESYSTEM,NETWORK"):
        Permissions.parse("never_ask")
