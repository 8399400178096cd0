"""Keys and roles at the door: missing, wrong, revoked, wrong role; boot refusals."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bastion.adapters.http import BootRefused, check_boot
from bastion.adapters.http.auth import PERMISSIONS, unsafe_routes
from bastion.adapters.http.routes import route_permissions
from bastion.keys import MemoryKeyStore, Role, SqliteKeyStore
from bastion.keys import model as key_model
from tests.adapters.http.helpers import Gateway, shell

#: (method, path, body) of one call per permission, and which roles may make it.
CALLS: list[tuple[str, str, Any, set[str]]] = [
    ("POST", "/v1/decide", shell("git status"), {"agent", "admin"}),
    ("POST", "/v1/requests", shell("git status"), {"agent", "admin"}),
    ("GET", "/v1/requests", None, {"approver", "admin"}),
    ("GET", "/v1/logs", None, {"admin"}),
    ("POST", "/v1/policy/check", {"text": ""}, {"approver", "admin"}),
    ("POST", "/v1/settings", {"mode": "workspace"}, {"approver", "admin"}),
]


def status(gateway: Gateway, method: str, path: str, body: Any, **headers: str) -> tuple[int, str]:
    response = gateway.client(**headers).request(method, path, json=body)
    code = response.json().get("error", {}).get("code", "") if response.status_code >= 400 else ""
    return response.status_code, code


def test_health_needs_no_key_and_says_nothing_about_policy_or_requests(gateway: Gateway) -> None:
    response = gateway.client().get("/health")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


def test_the_openapi_document_needs_no_key_since_it_holds_no_secret(gateway: Gateway) -> None:
    response = gateway.client().get("/v1/openapi.json")
    assert (response.status_code, response.json()["openapi"]) == (200, "3.1.0")


def test_every_api_route_refuses_a_call_without_a_key(gateway: Gateway) -> None:
    results = {path: status(gateway, method, path, body) for method, path, body, _ in CALLS}
    assert results == {path: (401, "missing_key") for _, path, _, _ in CALLS}


def test_a_wrong_malformed_or_revoked_key_is_refused(gateway: Gateway) -> None:
    store = SqliteKeyStore.in_state_dir(gateway.env["BASTION_STATE_DIR"])
    store.revoke(gateway.key_ids["approver2"], now=time.time())
    store.close()
    wrong = gateway.keys["agent"][:-4] + "AAAA"
    results = [
        status(gateway, "POST", "/v1/decide", shell("ls"), **{"X-API-Key": key})
        for key in (wrong, "not-a-key", gateway.keys["approver2"])
    ]
    assert results == [(401, "invalid_key")] * 3


def test_a_bearer_token_is_accepted_like_the_api_key_header(gateway: Gateway) -> None:
    result = status(
        gateway, "POST", "/v1/decide", shell("ls"), Authorization=f"Bearer {gateway.keys['agent']}"
    )
    assert result == (200, "")


@pytest.mark.parametrize("role", ["agent", "approver", "admin"])
def test_each_role_reaches_exactly_its_endpoints(gateway: Gateway, role: str) -> None:
    results = {
        path: status(gateway, method, path, body, **{"X-API-Key": gateway.keys[role]})[0]
        for method, path, body, _ in CALLS
    }
    assert results == {path: 200 if role in allowed else 403 for _, path, _, allowed in CALLS}


def test_keys_are_compared_in_constant_time(gateway: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[str, str]] = []
    real = key_model.hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(key_model.hmac, "compare_digest", spy)
    gateway.client("agent").post("/v1/decide", json=shell("ls"))
    digest = key_model.key_hash(gateway.keys["agent"])
    assert compared == [(digest, digest)]


def test_the_openapi_document_lists_every_api_route(gateway: Gateway) -> None:
    document = gateway.client("agent").get("/v1/openapi.json").json()
    listed = {(method.upper(), path) for path, ops in document["paths"].items() for method in ops}
    assert listed == {
        ("GET", "/health"),
        ("POST", "/v1/decide"),
        ("POST", "/v1/requests"),
        ("GET", "/v1/requests"),
        ("GET", "/v1/requests/{id}"),
        ("POST", "/v1/requests/{id}/approve"),
        ("POST", "/v1/requests/{id}/deny"),
        ("GET", "/v1/events"),
        ("GET", "/v1/logs"),
        ("POST", "/v1/policy/check"),
        ("GET", "/v1/openapi.json"),
        ("GET", "/ready"),
        ("GET", "/v1/settings"),
        ("POST", "/v1/settings"),
        ("POST", "/v1/grants/{id}/revoke"),
    }


def test_no_approval_route_is_reachable_with_an_agent_key() -> None:
    assert unsafe_routes(route_permissions()) == []
    assert Role.AGENT not in PERMISSIONS["answer"]
    assert Role.AGENT not in PERMISSIONS["settings"]


def test_boot_is_refused_when_an_agent_key_could_approve() -> None:
    loose = {**PERMISSIONS, "answer": frozenset({Role.AGENT, Role.APPROVER})}
    assert unsafe_routes([("/v1/requests/{id}/approve", "answer")], loose) == ["/v1/requests/{id}/approve"]
    assert unsafe_routes([("/v1/requests/{id}/deny", "decide")]) == ["/v1/requests/{id}/deny"]
    # Changing settings is as strong as answering: an agent that could set its own mode
    # would need no answer.
    loose = {**PERMISSIONS, "settings": frozenset({Role.AGENT, Role.APPROVER})}
    assert unsafe_routes([("/v1/settings", "settings")], loose) == ["/v1/settings"]


def test_boot_is_refused_on_a_public_address_with_no_key_but_not_on_loopback() -> None:
    empty = MemoryKeyStore()
    check_boot("127.0.0.1", empty, route_permissions())
    check_boot("::1", empty, route_permissions())
    with pytest.raises(BootRefused, match="not loopback"):
        check_boot("0.0.0.0", empty, route_permissions())
    empty.create(Role.AGENT, now=0.0)
    check_boot("0.0.0.0", empty, route_permissions())
