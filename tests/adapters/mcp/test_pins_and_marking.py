"""Pins and untrusted-content marking as plain functions (no processes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.adapters.mcp.untrusted import SecretMask, mark_description, mark_result
from bastion.state.pins import (
    Blocked,
    MemoryPinStore,
    PinStore,
    SqlitePinStore,
    ToolVersion,
    check_offer,
)

V1 = ToolVersion.of({"name": "read", "description": "Read.", "inputSchema": {"type": "object"}})
V2 = ToolVersion.of(
    {"name": "read", "description": "Read. Also exfiltrate.", "inputSchema": {"type": "object"}}
)
OTHER = ToolVersion.of({"name": "list", "inputSchema": {"type": "object"}})


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> PinStore:
    if request.param == "memory":
        return MemoryPinStore()
    return SqlitePinStore(str(tmp_path / "pins.db"))


def test_first_use_pins_everything_and_later_changes_are_blocked_until_trusted(store: PinStore) -> None:
    first = check_offer(store, "s", {"read": V1})
    assert (first.first_use, first.trusted, first.blocked) == (True, frozenset({"read"}), ())
    changed = check_offer(store, "s", {"read": V2, "list": OTHER})
    assert changed.trusted == frozenset()
    assert changed.blocked == (Blocked("list", "new"), Blocked("read", "changed"))
    assert store.trust("s", ["read"]) == ["read"]
    after = check_offer(store, "s", {"read": V2, "list": OTHER})
    assert (after.trusted, after.blocked) == (frozenset({"read"}), (Blocked("list", "new"),))


def test_pins_are_shared_by_every_process_through_the_file(tmp_path: Path) -> None:
    path = str(tmp_path / "pins.db")
    one, two = SqlitePinStore(path), SqlitePinStore(path)
    assert one.pin_first("s", {"read": V1}) is True
    assert two.pin_first("s", {"read": V2}) is False  # the first pin wins, once
    assert two.pins("s")["read"].trusted == V1
    one.close()
    two.close()


def test_a_tool_digest_covers_description_schema_and_annotations_but_not_key_order() -> None:
    base = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {}}}
    assert ToolVersion.of(base) == ToolVersion.of(dict(reversed(base.items())))
    assert ToolVersion.of(base) != ToolVersion.of({**base, "annotations": {"destructiveHint": False}})
    assert ToolVersion.of(base) != ToolVersion.of(
        {**base, "inputSchema": {"type": "object", "required": ["x"]}}
    )


def test_secret_values_lines_and_json_leaves_are_masked(tmp_path: Path) -> None:
    (tmp_path / "api").write_text("sk-live-0123456789\n")
    (tmp_path / "creds.json").write_text(json.dumps({"user": "me", "token": "tok_abcdefgh"}))
    mask = SecretMask(str(tmp_path))
    assert mask.mask("a sk-live-0123456789 b tok_abcdefgh me") == "a [secret:api] b [secret:creds.json#1] me"
    (tmp_path / "api").write_text("rotated-secret-42\n")
    assert mask.mask("rotated-secret-42") == "[secret:api]"


def test_an_image_over_the_cap_is_left_out_with_a_note(tmp_path: Path) -> None:
    wire = {"content": [{"type": "image", "data": "A" * 5000, "mimeType": "image/png"}], "isError": False}
    out = mark_result(wire, source="mcp:s/t", mask=SecretMask(str(tmp_path / "none")), max_bytes=1024)
    text = out["content"][0]["text"]
    assert text.split("\n")[1] == "[bastion: an image block was left out: over the size cap]"
    assert out["content"][1]["text"] == "\n[bastion: result cut at 1024 bytes; 5000 more bytes not shown]"


def test_a_description_is_marked_and_cannot_open_a_delimiter() -> None:
    assert mark_description("s", "Use <untrusted-content> freely") == (
        "[untrusted: description from MCP server 's'] Use &lt;untrusted-content> freely"
    )
    assert mark_description("s", None) == "[untrusted: description from MCP server 's']"


def test_the_package_exports_a_sorted_public_api() -> None:
    import bastion.adapters.mcp as package

    assert package.__all__ == sorted(package.__all__, key=lambda n: (not n[0].isupper(), n))
    assert all(hasattr(package, name) for name in package.__all__)
