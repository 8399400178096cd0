"""``bastion install`` says plainly when an agent's calls will run uncontained."""

from __future__ import annotations

import pytest

from bastion.adapters.hooks.install import install
from tests.adapters.hooks.conftest import Sandbox


def _install(agent: str, sandbox: Sandbox) -> list[str]:
    out: list[str] = []
    scope = "user" if agent in ("codex", "gemini") else "project"
    install(agent, scope=scope, cwd=str(sandbox.project), env=sandbox.env(), executable="/opt/b/bastion",
            out=out.append)  # fmt: skip
    return out


@pytest.mark.parametrize(
    ("agent", "how"),
    [
        ("qwen", "bastion launch qwen (the agent itself in Bastion's agent:qwen sandbox)"),
    ],
)
def test_installing_an_agent_whose_hooks_cannot_rewrite_says_its_calls_run_uncontained(
    agent: str, how: str, sandbox: Sandbox
) -> None:
    out = _install(agent, sandbox)

    assert out[-1] == (
        f"{agent}: its hooks cannot rewrite a call, so a call Bastion allows runs UNCONTAINED, "
        f"on the host with the agent's own rights. For an OS sandbox start it with: {how}"
    )


@pytest.mark.parametrize("agent", ["claude", "copilot", "codex", "gemini"])
def test_installing_an_agent_whose_hooks_rewrite_adds_no_such_warning(agent: str, sandbox: Sandbox) -> None:
    assert not any("UNCONTAINED" in line for line in _install(agent, sandbox))


def test_installing_codex_says_its_own_sandbox_cannot_host_the_contained_call(sandbox: Sandbox) -> None:
    from bastion.agents.codex import NESTING_NOTE as CODEX_NESTING_NOTE

    assert CODEX_NESTING_NOTE in _install("codex", sandbox)
    assert "--sandbox danger-full-access" in CODEX_NESTING_NOTE
