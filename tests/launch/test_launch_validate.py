"""The validator: any dimension looser than the ceiling rejects the mapping."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.launch.validate import check
from bastion.policy.ceiling import DIMENSIONS, Ceiling

permissions = st.builds(
    Ceiling,
    st.sampled_from(("ask_every_action", "ask_for_risky", "never_ask")),
    st.sampled_from(("read_only", "workspace_write", "unrestricted")),
    st.sampled_from(("denied", "allowed")),
)


def _looser(a: Ceiling, b: Ceiling) -> list[str]:
    return [name for name, _ in DIMENSIONS if getattr(a, name).rank > getattr(b, name).rank]


@given(permissions, permissions)
def test_the_validator_rejects_every_mapping_looser_in_any_dimension(
    effective: Ceiling, ceiling: Ceiling
) -> None:
    verdict = check(effective, ceiling)
    assert [v.split(":")[0] for v in verdict.violations] == _looser(effective, ceiling)
    assert verdict.ok == (effective.meet(ceiling) == effective)


@given(permissions, permissions)
def test_meeting_a_ceiling_never_raises_it(a: Ceiling, b: Ceiling) -> None:
    met = a.meet(b)
    assert check(met, a).ok and check(met, b).ok


def test_a_ceiling_is_parsed_from_the_command_line_and_bad_values_are_named() -> None:
    assert Ceiling.parse("never_ask, read_only ,denied") == Ceiling("never_ask", "read_only", "denied")
    with pytest.raises(ValueError, match="network must be one of denied, allowed, not 'off'"):
        Ceiling.parse("never_ask,read_only,off")
    with pytest.raises(ValueError, match="APPROVAL,FILESYSTEM,NETWORK"):
        Ceiling.parse("never_ask")
