"""``POST /v1/decide`` takes agent tool names through the same alias table as the hooks."""

from __future__ import annotations

from tests.adapters.http.conftest import GatewayFactory


def test_an_agent_tool_name_is_decided_as_its_family_over_http(gateway_factory: GatewayFactory) -> None:
    client = gateway_factory().client("agent")
    by_alias = client.post("/v1/decide", json={"tool": "Bash", "args": {"command": "cat ~/.ssh/id_rsa"}})
    by_family = client.post("/v1/decide", json={"tool": "shell", "args": {"command": "cat ~/.ssh/id_rsa"}})
    assert (by_alias.status_code, by_alias.json()["decision"]) == (200, "deny")
    assert by_alias.json() == by_family.json()
    unknown = client.post("/v1/decide", json={"tool": "Teleport", "args": {}})
    assert unknown.json()["decision"] == "deny"
