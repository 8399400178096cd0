"""``logs verify`` never raises: whatever a stored value was changed to, verification
returns a result, and any change to a record is reported at that record."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from bastion.audit.chain import Chain
from bastion.audit.events import EVENT_FIELDS
from bastion.audit.ledger import verify_rows
from bastion.audit.store import MemoryLedgerStore
from tests.audit.test_audit_ledger import event

CHAIN = Chain(b"c" * 32)
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.binary(max_size=20),
    st.lists(st.integers(), max_size=3),
)
COLUMNS = st.sampled_from(("seq", "prev", "hash", *EVENT_FIELDS))


def _rows() -> list[dict[str, object]]:
    store = MemoryLedgerStore(CHAIN)
    store.append([event(n) for n in range(1, 6)])
    return [dict(r) for r in store.scan_rows()]


@given(seq=st.integers(1, 5), column=COLUMNS, value=VALUES, drop=st.booleans())
def test_verify_reports_any_changed_or_missing_value_at_its_record_and_never_raises(
    seq: int, column: str, value: object, drop: bool
) -> None:
    rows = _rows()
    before = rows[seq - 1].get(column)
    if drop:
        rows[seq - 1].pop(column)
    else:
        rows[seq - 1][column] = value
    result = verify_rows(rows, CHAIN)
    changed = drop or type(value) is not type(before) or value != before
    if changed and column == "seq":  # a changed seq is named by the seq it was expected to be,
        assert (result.ok, result.bad_seq is not None) == (False, True)  # or the one found there
    elif changed:
        assert (result.ok, result.bad_seq is not None and result.bad_seq <= seq) == (False, True)
    else:
        assert dataclasses.astuple(result)[:2] == (True, 5)
