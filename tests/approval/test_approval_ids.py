"""Request and grant ids never start with ``-`` (about 1 in 64 used to): ``bastion approvals
approve ID`` would read such an id as an option. Every printed hint puts ``--`` before an id."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bastion.approval import hints
from bastion.approval.model import new_id


def test_ten_thousand_ids_from_a_seeded_source_never_start_with_a_dash_and_stay_distinct() -> None:
    source = random.Random(15)
    ids = [new_id(source.randbytes) for _ in range(10_000)]
    assert ([i for i in ids if i[0] in "-_"], {len(i) for i in ids}, len(set(ids))) == ([], {22}, 10_000)


@given(st.lists(st.binary(min_size=16, max_size=16), min_size=1, max_size=8))
def test_an_id_never_starts_with_a_dash_whatever_bytes_the_source_draws(draws: list[bytes]) -> None:
    # The last draw is one whose first character is a letter, so the generator can finish.
    supply = iter([*draws, b"\x00" * 16])
    made = new_id(lambda n: next(supply))
    assert (made[0] not in "-_", len(made)) == (True, 22)


def test_a_source_whose_first_draw_starts_with_a_dash_is_drawn_again() -> None:
    supply = iter([b"\xf8" + b"\x00" * 15, b"\x00" * 16])  # "-A…" then "AAAA…"
    assert new_id(lambda n: next(supply)) == "A" * 22


def test_every_printed_hint_puts_the_id_after_a_double_dash() -> None:
    assert (
        hints.approve("-x1"),
        hints.approve("-x1", "--always", "--scope", "session"),
        hints.deny("-x1", "--feedback '…'"),
        hints.revoke("-g1"),
    ) == (
        "bastion approvals approve -- -x1",
        "bastion approvals approve --always --scope session -- -x1",
        "bastion approvals deny --feedback '…' -- -x1",
        "bastion grants revoke -- -g1",
    )
