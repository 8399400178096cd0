"""Deciding, parking, answering and waiting through a real gateway."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from unittest.mock import ANY

from tests.adapters.http.helpers import EventReader, Gateway, eventually, shell

BASTION = [sys.executable, "-m", "bastion.adapters.cli.main"]


def park(gateway: Gateway, command: str = "make deploy prod", **extra: object) -> dict[str, Any]:
    response = gateway.client("agent").post("/v1/requests", json=shell(command, **extra))
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    return body


def asked(gateway: Gateway, command: str = "make deploy prod") -> dict[str, Any]:
    evaluation: dict[str, Any] = gateway.client("agent").post("/v1/decide", json=shell(command)).json()
    return evaluation


def test_decide_answers_with_the_same_json_as_bastion_check(gateway: Gateway) -> None:
    over_http = gateway.client("agent").post("/v1/decide", json=shell("git status")).json()
    checked = subprocess.run(
        [*BASTION, "check", "--policy", str(gateway.policy_file), "shell", "git status", "--json"],
        env=gateway.env,
        cwd=gateway.workspace,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert over_http == json.loads(checked.stdout)


def test_a_call_that_is_not_asked_is_decided_at_once_without_a_request(gateway: Gateway) -> None:
    response = gateway.client("agent").post("/v1/requests", json=shell("git status"))
    assert (response.status_code, response.json()) == (
        200,
        {
            "id": None,
            "state": "decided",
            "decision": "allow",
            "evaluation": asked(gateway, "git status"),
            "feedback": None,
            "created": ANY,
            "expires": None,
        },
    )


def test_an_asked_call_is_parked_as_a_pending_request_object(gateway: Gateway) -> None:
    parked = park(gateway, session="s-1", agent="claude")
    assert parked == {
        "id": ANY,
        "state": "pending",
        "decision": "ask",
        "evaluation": asked(gateway),
        "feedback": None,
        "created": ANY,
        "expires": ANY,
        "tool": "shell",
        "summary": "shell: make deploy prod",
        "reason": "deploys need a person",
        "offer": {
            "grantable": True,
            "scopes": ["project", "session"],
            "exact": "shell: make deploy prod",
            "suggested_pattern": "make deploy prod",
        },
        "session": "s-1",
        "agent": "claude",
        "resolver": None,
        "resolved": None,
        "approver": None,
    }


def test_approval_from_another_client_resumes_the_long_polling_waiter(gateway: Gateway) -> None:
    parked = park(gateway)
    rid = parked["id"]
    with ThreadPoolExecutor(1) as pool:
        waiter = pool.submit(gateway.client("agent").get, f"/v1/requests/{rid}", params={"wait": 60})
        approved = gateway.client("approver").post(f"/v1/requests/{rid}/approve")
        final = waiter.result(timeout=60).json()
    assert approved.status_code == 200
    assert (final["state"], final["approver"]) == ("approved_once", gateway.key_ids["approver"])
    assert final["evaluation"] == {
        "decision": "allow",
        "reasons": [
            {
                "rule": "approval.person",
                "source": f"request {rid}",
                "matched": rid,
                "message": "approved once by a person",
                "decision": "allow",
            },
            *parked["evaluation"]["reasons"],
        ],
        "effects": parked["evaluation"]["effects"],
        "marker": None,
    }


def test_a_denial_with_feedback_reaches_the_waiting_caller(gateway: Gateway) -> None:
    rid = park(gateway)["id"]
    with ThreadPoolExecutor(1) as pool:
        waiter = pool.submit(gateway.client("agent").get, f"/v1/requests/{rid}", params={"wait": 60})
        gateway.client("approver").post(
            f"/v1/requests/{rid}/deny", json={"feedback": "use the staging target"}
        )
        final = waiter.result(timeout=60).json()
    assert (final["state"], final["decision"], final["feedback"]) == (
        "denied",
        "deny",
        "use the staging target",
    )
    assert final["evaluation"]["reasons"][0] == {
        "rule": "approval.person",
        "source": f"request {rid}",
        "matched": rid,
        "message": "denied by a person: use the staging target",
        "decision": "deny",
    }


def test_a_long_poll_that_times_out_returns_the_request_still_pending(gateway: Gateway) -> None:
    rid = park(gateway)["id"]
    polled = gateway.client("agent").get(f"/v1/requests/{rid}", params={"wait": 0.2}).json()
    assert (polled["id"], polled["state"], polled["decision"]) == (rid, "pending", "ask")


def test_approve_always_creates_a_grant_that_then_allows_the_same_call(gateway: Gateway) -> None:
    rid = park(gateway)["id"]
    done = (
        gateway.client("approver")
        .post(f"/v1/requests/{rid}/approve", json={"always": True, "scope": "project"})
        .json()
    )
    again = gateway.client("agent").post("/v1/decide", json=shell("make deploy prod")).json()
    assert (done["state"], again["decision"], again["reasons"][0]["rule"]) == (
        "approved_always",
        "allow",
        "grant.exact",
    )


def test_approve_uncontained_is_its_own_answer_and_never_a_grant(gateway: Gateway) -> None:
    first, second = park(gateway)["id"], park(gateway, "make deploy qa")["id"]
    approver = gateway.client("approver")
    done = approver.post(f"/v1/requests/{first}/approve", json={"uncontained": True}).json()
    refused = approver.post(f"/v1/requests/{second}/approve", json={"uncontained": True, "always": True})
    assert (done["state"], refused.status_code, refused.json()["error"]["code"]) == (
        "approved_uncontained",
        422,
        "cannot_answer",
    )


def test_a_request_can_never_be_answered_by_the_key_that_created_it(gateway: Gateway) -> None:
    admin = gateway.client("admin")
    rid = admin.post("/v1/requests", json=shell("make deploy prod")).json()["id"]
    response = admin.post(f"/v1/requests/{rid}/approve")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "self_approval")


def test_an_agent_key_cannot_approve_and_sees_only_its_own_requests(gateway: Gateway) -> None:
    rid = park(gateway)["id"]
    other = gateway.client("admin").post("/v1/requests", json=shell("make deploy other")).json()["id"]
    agent = gateway.client("agent")
    assert [
        agent.post(f"/v1/requests/{rid}/approve").status_code,
        agent.get(f"/v1/requests/{rid}").status_code,
        agent.get(f"/v1/requests/{other}").status_code,
    ] == [403, 200, 404]


def test_answering_twice_is_a_conflict_and_an_unknown_id_is_not_found(gateway: Gateway) -> None:
    rid = park(gateway)["id"]
    approver = gateway.client("approver")
    approver.post(f"/v1/requests/{rid}/deny")
    second = approver.post(f"/v1/requests/{rid}/approve")
    unknown = approver.post("/v1/requests/nope/approve")
    assert [(r.status_code, r.json()["error"]["code"]) for r in (second, unknown)] == [
        (409, "already_resolved"),
        (404, "not_found"),
    ]


def test_hardline_requests_cannot_be_approved_always(gateway: Gateway) -> None:
    parked = park(gateway, "systemctl restart nginx")
    response = gateway.client("approver").post(f"/v1/requests/{parked['id']}/approve", json={"always": True})
    assert parked["offer"]["grantable"] is False
    assert (response.status_code, response.json()["error"]["code"]) == (422, "cannot_answer")


def test_listing_shows_pending_requests_newest_first(gateway: Gateway) -> None:
    first, second = park(gateway)["id"], park(gateway, "make deploy again")["id"]
    gateway.client("approver").post(f"/v1/requests/{first}/deny")
    pending = gateway.client("approver").get("/v1/requests").json()["requests"]
    everything = gateway.client("approver").get("/v1/requests", params={"state": "all"}).json()["requests"]
    assert [r["id"] for r in pending] == [second]
    assert [(r["id"], r["state"]) for r in everything] == [(second, "pending"), (first, "denied")]


def test_the_event_stream_announces_new_requests_and_their_resolution(gateway: Gateway) -> None:
    reader = EventReader(gateway.client("approver"))
    rid = park(gateway)["id"]
    appeared = reader.wait_for("request", rid)
    gateway.client("approver2").post(f"/v1/requests/{rid}/deny", json={"feedback": "not today"})
    resolved = reader.wait_for("resolved", rid)
    assert (reader.status, reader.content_type.split(";")[0]) == (200, "text/event-stream")
    assert (appeared["state"], resolved["state"], resolved["feedback"]) == ("pending", "denied", "not today")


def test_logs_are_for_admins_and_show_the_request_and_its_resolution(gateway: Gateway) -> None:
    rid = park(gateway)["id"]
    gateway.client("approver").post(f"/v1/requests/{rid}/approve")
    admin = gateway.client("admin")
    records = eventually(
        lambda: (lambda e: e if len(e) >= 2 else None)(admin.get("/v1/logs").json()["events"])
    )
    forbidden = gateway.client("approver").get("/v1/logs")
    assert [(r["kind"], r["decision_id"], r["decision"], r["resolver"]) for r in records] == [
        ("requested", rid, "ask", "policy"),
        ("resolved", rid, "allow", "person"),
    ]
    assert (forbidden.status_code, forbidden.json()["error"]["code"]) == (403, "forbidden")


def test_policy_check_validates_a_text_and_names_file_line_and_key(gateway: Gateway) -> None:
    admin = gateway.client("admin")
    good = admin.post("/v1/policy/check", json={"text": 'mode = "workspace"\n'}).json()
    bad = admin.post(
        "/v1/policy/check", json={"text": 'mode = "workspace"\n\nmode2 = 1\n', "path": "team.toml"}
    ).json()
    assert good == {"ok": True, "error": None}
    assert bad == {"ok": False, "error": {"file": "team.toml", "line": 3, "key": "mode2", "message": ANY}}


def test_a_policy_reload_that_fails_denies_every_call_until_the_file_is_fixed(gateway: Gateway) -> None:
    agent = gateway.client("agent")
    original = gateway.policy_file.read_text()
    gateway.policy_file.write_text(original + "\n[[rule]\n")
    broken = eventually(
        lambda: (lambda e: e if e["decision"] == "deny" else None)(
            agent.post("/v1/decide", json=shell("git status")).json()
        )
    )
    refused = agent.post("/v1/requests", json=shell("make deploy prod")).json()
    gateway.policy_file.write_text(original + "\n# fixed\n")
    fixed = eventually(
        lambda: (lambda e: e if e["decision"] == "allow" else None)(
            agent.post("/v1/decide", json=shell("git status")).json()
        )
    )
    assert broken == {
        "decision": "deny",
        "reasons": [
            {
                "rule": "policy.invalid",
                "source": "built-in",
                "matched": "",
                "decision": "deny",
                "message": ANY,
            }
        ],
        "effects": ["unknown"],
        "marker": "[policy-denied]",
        # A denial says how to allow it, or that it cannot be (bastion.policy.remedy).
        "how_to_allow": "It cannot be allowed until the policy loads again: fix it (`bastion policy test` checks it).",
    }
    assert str(gateway.policy_file) in broken["reasons"][0]["message"]
    assert (refused["state"], refused["evaluation"]) == ("decided", broken)
    assert fixed["reasons"][0]["rule"] == "mode.workspace"
