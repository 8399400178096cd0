"""``GET /ready``: behind a key, every part checked for real and reported with its reason."""

from __future__ import annotations

import time

from bastion.adapters.http.ready import Check, readiness, run_check
from tests.adapters.http.conftest import GatewayFactory


def test_ready_needs_a_key(gateway_factory: GatewayFactory) -> None:
    gateway = gateway_factory()
    assert gateway.client().get("/ready").status_code == 401
    assert gateway.client("agent").get("/ready").status_code == 200


def test_a_healthy_daemon_is_ready_and_says_what_each_part_is(gateway_factory: GatewayFactory) -> None:
    gateway = gateway_factory()
    answer = gateway.client("approver").get("/ready")
    body = answer.json()
    assert (answer.status_code, body["ready"]) == (200, True)
    assert sorted(body["checks"]) == ["ledger", "policy", "sandbox", "store"]
    assert body["checks"]["policy"] == {"ok": True, "detail": f"loaded from {gateway.policy_file}",
                                        "required": True}  # fmt: skip
    assert body["checks"]["store"]["ok"] and body["checks"]["ledger"]["ok"]
    # This gateway runs with sandboxed=False: the sandbox is reported, not required.
    assert body["checks"]["sandbox"]["required"] is False


def test_a_broken_policy_makes_the_daemon_not_ready_with_the_load_error(
    gateway_factory: GatewayFactory,
) -> None:
    gateway = gateway_factory()
    client = gateway.client("admin")
    gateway.policy_file.write_text("[commands]\nallow = 3\n")
    deadline = time.monotonic() + 20
    answer = client.get("/ready")
    while answer.status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.1)  # the daemon re-reads the policy every 0.1 s in this fixture
        answer = client.get("/ready")
    body = answer.json()
    assert (answer.status_code, body["ready"], body["checks"]["policy"]["ok"]) == (503, False, False)
    assert "allow" in body["checks"]["policy"]["detail"]


def test_a_probe_that_raises_is_a_failed_check_and_only_required_failures_count() -> None:
    def broken() -> str:
        raise OSError("disk gone")

    failed = run_check("store", broken)
    assert failed == Check("store", False, "OSError: disk gone", True)
    optional = Check("sandbox", False, "no bwrap", required=False)
    assert readiness([Check("policy", True, "ok"), optional]) == (
        200,
        {"ready": True, "checks": {"policy": {"ok": True, "detail": "ok", "required": True},
                                   "sandbox": {"ok": False, "detail": "no bwrap", "required": False}}},
    )  # fmt: skip
    assert readiness([failed, optional])[0] == 503
