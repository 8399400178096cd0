"""The egress proxy's gate for a contained agent: its model API allowed by default, the
policy deciding everything else (and able to deny the model API too)."""

from __future__ import annotations

from collections.abc import Callable

from bastion.adapters.cli.agent_sandbox import ModelHostsGate
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision
from bastion.policy.engine import Gate

HOSTS = {"api.openai.com": ["203.0.113.7"], "elsewhere.example": ["203.0.113.8"]}


def _fetch(url: str) -> ToolCall:
    return ToolCall(
        tool="fetch", args={"url": url, "method": "CONNECT"}, cwd="/", agent="codex", interactive=True
    )


def test_the_model_api_the_policy_would_ask_about_is_allowed_with_its_reason(
    make_gate: Callable[..., Gate],
) -> None:
    gate = ModelHostsGate(
        make_gate("[network]\nallow_private = true\n"), "codex", ("api.openai.com", "127.0.0.1")
    )

    found = gate.evaluate(_fetch("https://api.openai.com:443/"))

    assert (found.decision, found.reasons[0].rule, found.reasons[0].message) == (
        Decision.ALLOW,
        "exec.agent-model-api",
        "api.openai.com is codex's model API: reachable by default in agent:codex",
    )


def test_another_host_is_left_to_the_policy_and_a_denied_model_host_stays_denied(
    make_gate: Callable[..., Gate],
) -> None:
    policy = "[network]\nallow_private = true\ndeny_hosts = ['api.openai.com']\n"
    gate = ModelHostsGate(make_gate(policy, hosts=HOSTS), "codex", ("api.openai.com",))

    other = gate.evaluate(_fetch("https://elsewhere.example:443/"))
    denied = gate.evaluate(_fetch("https://api.openai.com:443/"))
    metadata = gate.evaluate(_fetch("http://169.254.169.254:80/"))

    assert (other.decision, denied.decision, metadata.decision) == (
        Decision.ASK,
        Decision.DENY,
        Decision.DENY,
    )
