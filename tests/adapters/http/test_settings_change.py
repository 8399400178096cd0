"""``POST /v1/settings`` and the settings page's form at the door: approver keys only, the
page's CSRF protection, a record in the ledger with the approver, and bad input refused with
what to fix, nothing written."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import httpx

from tests.adapters.http.helpers import Gateway

WRITE = {"tool": "write", "args": {"path": "notes.txt", "content": "x"}}


def decided(gateway: Gateway) -> str:
    call = {**WRITE, "args": {**WRITE["args"], "path": str(gateway.workspace / "notes.txt")}}
    return str(gateway.client("agent").post("/v1/decide", json=call).json()["decision"])


def logged_in(gateway: Gateway, role: str = "approver") -> tuple[httpx.Client, str]:
    """A page login (the cookie) and its CSRF token, read from the page like a browser."""
    client = gateway.client()
    answer = client.post("/login", data={"key": gateway.keys[role]}, follow_redirects=True)
    assert answer.status_code == 200, answer.text
    found = re.search(r'<meta name="csrf-token" content="([^"]+)">', answer.text)
    assert found is not None
    return client, found.group(1)


def settings_records(gateway: Gateway) -> list[dict[str, Any]]:
    records = gateway.client("admin").get("/v1/logs").json()["events"]
    return [r for r in records if r["kind"] == "settings"]


def test_an_approver_key_changes_the_mode_and_the_next_call_is_decided_under_it(gateway: Gateway) -> None:
    assert decided(gateway) == "allow"
    answer = gateway.client("approver").post("/v1/settings", json={"mode": "read-only"})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["mode"]["value"], body["change"]) == (
        "read-only",
        {"file": str(gateway.policy_file), "revoked": [], "notes": []},
    )
    assert tomllib.loads(gateway.policy_file.read_text())["mode"] == "read-only"
    assert decided(gateway) == "deny"
    gateway.client("admin").post("/v1/settings", json={"mode": "ask-before-edit"})
    assert decided(gateway) == "ask"


def test_the_change_is_recorded_in_the_ledger_with_the_approvers_key(gateway: Gateway) -> None:
    gateway.client("approver").post("/v1/settings", json={"mode": "read-only"})
    (record,) = settings_records(gateway)
    assert {
        k: record[k] for k in ("tool", "decision", "resolver", "rule", "source", "approver", "raw_args")
    } == {
        "tool": "settings",
        "decision": "applied",
        "resolver": "person",
        "rule": "settings.change",
        "source": str(gateway.policy_file),
        "approver": gateway.key_ids["approver"],
        "raw_args": {"mode": "read-only"},
    }


def test_an_agent_key_is_refused_and_nothing_is_written(gateway: Gateway) -> None:
    before = gateway.policy_file.read_text()
    answer = gateway.client("agent").post("/v1/settings", json={"mode": "full-access"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "forbidden")
    assert gateway.client().post("/v1/settings", json={"mode": "full-access"}).status_code == 401
    assert (gateway.policy_file.read_text(), settings_records(gateway)) == (before, [])


def test_a_page_login_needs_its_csrf_token_on_the_api_and_in_the_form(gateway: Gateway) -> None:
    client, csrf = logged_in(gateway)
    before = gateway.policy_file.read_text()
    no_header = client.post("/v1/settings", json={"mode": "read-only"})
    wrong_field = client.post("/settings", data={"csrf": "forged", "mode": "read-only"})
    no_field = client.post("/settings", data={"mode": "read-only"})
    assert [(r.status_code, r.json()["error"]["code"]) for r in (no_header, wrong_field, no_field)] == [
        (403, "csrf"),
        (403, "csrf"),
        (403, "csrf"),
    ]
    assert gateway.policy_file.read_text() == before
    with_header = client.post("/v1/settings", json={"mode": "read-only"}, headers={"X-CSRF-Token": csrf})
    assert with_header.status_code == 200, with_header.text
    assert decided(gateway) == "deny"


def test_a_cross_site_form_post_carries_no_login_and_changes_nothing(gateway: Gateway) -> None:
    # SameSite=Strict: a browser sends no cookie with another site's form post, so the post
    # arrives as from nobody; a form-encoded body to the API is not JSON either.
    before = gateway.policy_file.read_text()
    foreign = {"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"}
    page = gateway.client().post("/settings", content="mode=full-access", headers=foreign)
    api = gateway.client().post("/v1/settings", content="mode=full-access", headers=foreign)
    assert [(r.status_code, r.json()["error"]["code"]) for r in (page, api)] == [
        (401, "invalid_session"),
        (401, "missing_key"),
    ]
    assert gateway.policy_file.read_text() == before


def test_the_form_saves_only_what_changed_and_answers_with_the_page(gateway: Gateway) -> None:
    client, csrf = logged_in(gateway)
    shown = client.get("/settings").text
    assert '<option value="workspace" selected>' in shown and 'name="csrf"' in shown
    assert f"saved to your own policy file, <code>{gateway.policy_file}</code>" in shown
    assert gateway.client("approver").get("/v1/settings").json()["writes_to"] == str(gateway.policy_file)
    same = client.post(
        "/settings", data={"csrf": csrf, "mode": "workspace", "workspace": str(gateway.workspace)}
    )
    assert "Nothing to save" in same.text and settings_records(gateway) == []
    saved = client.post(
        "/settings", data={"csrf": csrf, "mode": "ask-before-edit", "workspace": str(gateway.workspace)}
    )
    assert saved.status_code == 200
    assert f"Saved to <code>{gateway.policy_file}</code>" in saved.text
    assert '<option value="ask-before-edit" selected>' in saved.text
    assert [r["raw_args"] for r in settings_records(gateway)] == [{"mode": "ask-before-edit"}]
    assert decided(gateway) == "ask"


def test_a_form_error_is_shown_on_the_page_and_nothing_is_written(gateway: Gateway) -> None:
    client, csrf = logged_in(gateway)
    before = gateway.policy_file.read_text()
    answer = client.post("/settings", data={"csrf": csrf, "granted_read": "relative/folder"})
    assert answer.status_code == 422
    assert (
        '<p role="alert" class="error">Not saved: trusted_roots: &#x27;relative/folder&#x27; is relative: '
        "write the whole path (/home/me/project) or start it with ~/</p>"
    ) in answer.text
    assert gateway.policy_file.read_text() == before


def test_bad_input_is_refused_with_what_to_fix(gateway: Gateway) -> None:
    client = gateway.client("approver")
    home = gateway.env["HOME"]
    cases = [
        (
            {"mode": "yolo"},
            "mode: 'yolo' is not a mode: use one of read-only, ask-before-edit, workspace, full-access",
        ),
        (
            {"workspace": ["/no/such/folder"]},
            "workspace: '/no/such/folder' is not an existing folder: create it first, or correct the path",
        ),
        (
            {"ceiling": {"approval": "never_ask"}},
            "ceiling: not a setting the page can change: use mode, workspace, trusted_roots, revoke_grants",
        ),
        ({}, "body: nothing to change: send at least one of mode, workspace, trusted_roots, revoke_grants"),
        (
            {"revoke_grants": ["nope"]},
            "revoke_grants: no active grant nope: reload the page to see the grants",
        ),
    ]
    answers = [client.post("/v1/settings", json=body) for body, _ in cases]
    assert [(a.status_code, a.json()["error"]) for a in answers] == [
        (422, {"code": "invalid_settings", "message": message}) for _, message in cases
    ]
    exposed = client.post("/v1/settings", json={"workspace": [home]})
    assert (exposed.status_code, exposed.json()["error"]["message"].split(":")[0]) == (422, "workspace")
    assert "lies inside the readable root" in exposed.json()["error"]["message"]
    not_json = client.post("/v1/settings", content=b"mode=read-only")
    assert (not_json.status_code, not_json.json()["error"]["code"]) == (400, "malformed_json")
    assert settings_records(gateway) == []


def test_a_grant_revoked_through_the_api_is_recorded_with_the_approver(gateway: Gateway) -> None:
    parked = gateway.client("agent").post(
        "/v1/requests", json={"tool": "shell", "args": {"command": "make deploy x"}}
    )
    approver = gateway.client("approver")
    approver.post(f"/v1/requests/{parked.json()['id']}/approve", json={"always": True})
    (grant,) = approver.get("/v1/settings").json()["grants"]
    answer = approver.post("/v1/settings", json={"revoke_grants": [grant["id"]]})
    assert (answer.status_code, answer.json()["grants"], answer.json()["change"]["revoked"]) == (
        200,
        [],
        [grant["id"]],
    )
    assert [(r["rule"], r["approver"]) for r in settings_records(gateway)] == [
        ("settings.revoke_grant", gateway.key_ids["approver"])
    ]
