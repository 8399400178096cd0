"""Tools built from policy text, with the real runner and a controllable authorizer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.configuration import Configuration
from bastion.exec import BubblewrapRunner, ExecConfig, Runner
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.policy.network import Resolver, StaticResolver
from bastion.tools import Authorizer, Tool, registry
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import require_bwrap


class StubAuthorizer:
    """Allows every call with the given effects; records what ran (for exec tests)."""

    def __init__(self, *effects: Effect) -> None:
        self.effects = effects
        self.requests: list[ToolCall] = []
        self.executions: list[tuple[str, int | None]] = []

    async def request(self, call: ToolCall) -> Evaluation:
        self.requests.append(call)
        reason = Reason(Decision.ALLOW, "test.stub", "test", "", "allowed by the test")
        return Evaluation(Decision.ALLOW, (reason,), self.effects)

    def record_execution(
        self, call: ToolCall, evaluation: Evaluation, exit_code: int | None, duration: float
    ) -> None:
        self.executions.append((call.tool, exit_code))


ToolsFactory = Callable[..., dict[str, Tool]]


@pytest.fixture
def child_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


@pytest.fixture
def make_tools(make_policy: PolicyFactory, child_env: dict[str, str]) -> ToolsFactory:
    def build(
        text: str = "",
        *,
        authorizer: Authorizer | None = None,
        resolver: Resolver | None = None,
        config: ExecConfig | None = None,
        sandbox: bool = False,
    ) -> dict[str, Tool]:
        runner: Runner | None = None
        if sandbox:
            require_bwrap()
            runner = BubblewrapRunner()
        tools = registry(
            Configuration(make_policy(text), exec=config or ExecConfig(timeout=20)),
            authorizer=authorizer,
            runner=runner,
            resolver=resolver or StaticResolver({}),
            environ=child_env,
        )
        return {t.name: t for t in tools}

    return build


def run(tool: Tool, args: Mapping[str, Any], **kw: Any) -> dict[str, Any]:
    return asyncio.run(tool.run(args, **kw))


def essentials(result: Mapping[str, Any]) -> dict[str, Any]:
    """The result without the fields that vary run to run."""
    return {k: v for k, v in result.items() if k not in ("duration", "reasons")}
