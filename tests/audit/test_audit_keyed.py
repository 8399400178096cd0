"""The keyed argument hash: equal calls get equal digests, whichever object carries them,
and the short-cut for a call digested again returns what a fresh computation would."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
from dataclasses import asdict

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.audit.chain import Chain, canonical, canonical_values
from bastion.audit.events import EVENT_FIELDS, EventKind, make_event
from bastion.audit.keyed import ArgumentHasher, canonical_call
from bastion.audit.settings import AuditConfig
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation, Reason

KEY = b"k" * 32


def fresh(call: ToolCall) -> str:
    return hmac.new(KEY, canonical_call(call), hashlib.sha256).hexdigest()


def test_a_call_digested_again_gets_the_digest_a_fresh_computation_gives() -> None:
    hasher = ArgumentHasher(KEY)
    calls = [ToolCall("shell", {"command": f"echo {n}"}, cwd="/p") for n in range(600)]
    first = [hasher.digest(c) for c in calls]
    again = [hasher.digest(c) for c in reversed(calls)]
    assert (first, list(reversed(again))) == ([fresh(c) for c in calls], [fresh(c) for c in calls])


def test_equal_calls_in_different_objects_share_a_digest_and_different_ones_do_not() -> None:
    hasher = ArgumentHasher(KEY)
    one = ToolCall("shell", {"command": "ls"}, cwd="/p")
    same = ToolCall("shell", {"command": "ls"}, cwd="/p")
    moved = dataclasses.replace(one, cwd="/q")
    assert (hasher.digest(one) == hasher.digest(same), hasher.digest(one) == hasher.digest(moved)) == (
        True,
        False,
    )


def test_a_digest_never_outlives_its_call_object_by_id_reuse() -> None:
    # Two calls made and dropped one after the other often get the same id(): the second must
    # not be given the first one's digest.
    hasher = ArgumentHasher(KEY)
    seen = []
    for n in range(300):
        call = ToolCall("read", {"path": f"/p/{n}"}, cwd="/p")
        seen.append(hasher.digest(call) == fresh(call))
        del call
    assert all(seen)


def test_the_chain_s_canonical_bytes_are_the_event_s_fields_as_sorted_json() -> None:
    evaluation = Evaluation(Decision.ASK, (Reason(Decision.ASK, "r", "/p/policy.toml:3", "x", "ask ✓"),))
    call = ToolCall("shell", {"command": "git push"}, cwd="/p", session="s", agent="a")
    event = make_event(
        call,
        evaluation,
        kind=EventKind.DECIDED,
        decision_id="d1",
        resolver="policy",
        time=12.5,
        hasher=ArgumentHasher(KEY),
        config=AuditConfig(store_raw_arguments=True),
        exit_code=3,
        duration=0.25,
    )
    fields = {"seq": 7, "prev": "p" * 64, **asdict(event)}
    assert fields.pop("parent") is None  # left out when None: older ledgers still verify
    expected = json.dumps(
        fields,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    ).encode()
    assert (canonical(7, "p" * 64, event), Chain(b"c" * 32).hash(7, "p" * 64, event)) == (
        expected,
        hmac.new(b"c" * 32, expected, hashlib.sha256).hexdigest(),
    )


_FIELD_VALUES = st.none() | st.integers() | st.floats() | st.text(max_size=12) | st.booleans()


@given(st.lists(_FIELD_VALUES, min_size=len(EVENT_FIELDS), max_size=len(EVENT_FIELDS)), st.booleans())
@settings(max_examples=300, deadline=None)
def test_the_canonical_bytes_written_in_presorted_order_are_what_sorted_json_dumps_writes(
    values: list[object], legacy: bool
) -> None:
    # The ledger writes a dict already in sorted key order through one prebuilt encoder:
    # any field value (NaN and infinities refused alike) gives json.dumps's exact bytes.
    fields = dict(zip(("seq", "prev", *EVENT_FIELDS), (9, "p" * 64, *values), strict=True))
    if fields["parent"] is None:
        del fields["parent"]
    if legacy:
        fields.pop("approver")
    try:
        expected: bytes | str = json.dumps(
            fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        ).encode()
    except ValueError as exc:
        expected = str(exc)
    try:
        got: bytes | str = canonical_values(9, "p" * 64, tuple(values), legacy=legacy)
    except ValueError as exc:
        got = str(exc)
    assert got == expected
