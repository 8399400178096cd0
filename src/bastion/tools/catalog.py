"""The tool catalog: ``registry(policy, …)`` builds the tools this policy enables."""

from __future__ import annotations

import os
from collections.abc import Mapping

from bastion.call.model import Family
from bastion.construct import GateOptions, build_gate
from bastion.exec.config import ExecConfig
from bastion.exec.runner import Runner, SandboxUnavailable
from bastion.exec.select import REQUIRE_VARIABLE, select_runner
from bastion.policy.compiled import Policy
from bastion.policy.network import Resolver, SystemResolver
from bastion.tools.base import Authorizer, GateAuthorizer, Tool, ToolContext
from bastion.tools.fetch import FetchTool
from bastion.tools.files import EditTool, ListTool, ReadTool, WriteTool
from bastion.tools.process_tools import CodeTool, ExecTool
from bastion.tools.search import GlobTool, GrepTool

TOOL_CLASSES: tuple[type[Tool], ...] = (
    ReadTool,
    WriteTool,
    EditTool,
    ListTool,
    GlobTool,
    GrepTool,
    ExecTool,
    CodeTool,
    FetchTool,
)
_NEEDS_RUNNER = frozenset({Family.SHELL, Family.CODE})


def disabled(policy: Policy, family: Family) -> bool:
    """True when the last word on ``family`` is a ``[[rule]]`` deny with no pattern.

    A later rule for the same tool (say, an allow with a pattern) leaves the tool offered.
    """
    last = None
    for rule in policy.rules:
        if rule.tool == family.value:
            last = rule
    return last is not None and last.pattern is None and last.action == "deny"


def registry(
    policy: Policy,
    *,
    authorizer: Authorizer | None = None,
    runner: Runner | None = None,
    config: ExecConfig | None = None,
    resolver: Resolver | None = None,
    cwd: str | None = None,
    environ: Mapping[str, str] | None = None,
    interactive: bool = False,
) -> list[Tool]:
    """The enabled tools. ``runner`` None picks one (``select_runner``); without a usable
    runner ``exec`` and ``code`` are not offered, unless BASTION_REQUIRE_SANDBOX=1, which
    makes that an error. ``authorizer`` None decides with the gate alone (ASK = no)."""
    environ = os.environ if environ is None else environ
    if runner is None:
        try:
            runner = select_runner(environ)
        except SandboxUnavailable:
            if environ.get(REQUIRE_VARIABLE, "") == "1":
                raise
            runner = None
    resolver = resolver or SystemResolver()
    if authorizer is None:
        gate = build_gate(policy, GateOptions(resolver=resolver, sandboxed=bool(runner and runner.sandboxed)))
        authorizer = GateAuthorizer(gate)
    ctx = ToolContext(
        policy=policy,
        authorizer=authorizer,
        config=config or policy.exec,
        runner=runner,
        resolver=resolver,
        cwd=os.path.abspath(cwd or policy.workspace[0]),
        environ=environ,
        interactive=interactive,
    )
    return [
        cls(ctx)
        for cls in TOOL_CLASSES
        if not disabled(policy, cls.family) and (runner is not None or cls.family not in _NEEDS_RUNNER)
    ]
