"""The tool catalog: ``registry(configuration, …)`` builds the tools this policy offers.

The schema follows the mode: what the model is shown is only what it may use. A tool is
offered when the policy's ``enabled`` list names it (no list: every tool), no pattern-less
``[[rule]]`` deny disables its family, it has a runner if it runs processes, and - in
read-only (the mode, or a read-only ``[ceiling]`` file system) - it changes nothing: no
write, edit, multi_edit, exec, code or install is ever listed there. A call to a tool that
is not offered is denied as unknown (``unknown_tool``), with the engine's own rule id.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from bastion.call.effects import Effect
from bastion.call.families import Family
from bastion.configuration import Configuration
from bastion.construct import GateOptions, build_gate
from bastion.exec.runner import Runner, SandboxUnavailable
from bastion.exec.select import REQUIRE_VARIABLE, select_runner
from bastion.policy.ceiling import FilesystemLevel
from bastion.policy.compiled import Policy
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.kinds import Mode, RuleAction
from bastion.policy.network import Resolver, SystemResolver
from bastion.tools.base import Authorizer, GateAuthorizer, Tool, ToolContext
from bastion.tools.fetch import FetchTool
from bastion.tools.files import EditTool, ListTool, MultiEditTool, ReadTool, WriteTool
from bastion.tools.install import DetectToolsTool, InstallTool
from bastion.tools.job import JobTool
from bastion.tools.process_tools import CodeTool, ExecTool
from bastion.tools.search import GlobTool, GrepTool
from bastion.tools.session import SessionTool

TOOL_CLASSES: tuple[type[Tool], ...] = (
    ReadTool,
    WriteTool,
    EditTool,
    MultiEditTool,
    ListTool,
    GlobTool,
    GrepTool,
    ExecTool,
    CodeTool,
    FetchTool,
    InstallTool,
    DetectToolsTool,
    SessionTool,
    JobTool,
)
NEEDS_RUNNER = frozenset({Family.SHELL, Family.CODE, Family.INSTALL})
#: Families never shown in read-only: they write, or run what could (seed 004: the model
#: "never even sees write or bash"). A tool not marked read-only is hidden there too.
READ_ONLY_HIDDEN = frozenset({Family.WRITE, Family.EDIT, Family.SHELL, Family.CODE, Family.INSTALL})
#: The engine's rule for a call to an unknown tool family; an unoffered tool is unknown too.
UNKNOWN_TOOL_RULE = "call.unknown-family"


def read_only(policy: Policy) -> bool:
    ceiling = policy.ceiling
    return policy.mode is Mode.READ_ONLY or (
        ceiling is not None and ceiling.filesystem is FilesystemLevel.READ_ONLY
    )


def permitted(policy: Policy, tool: type[Tool]) -> bool:
    """Does this policy offer ``tool`` (the mode, ``enabled``, a disabling rule)?"""
    if policy.enabled is not None and tool.name not in policy.enabled:
        return False
    if read_only(policy) and (tool.family in READ_ONLY_HIDDEN or not tool.annotations["readOnlyHint"]):
        return False
    return not disabled(policy, tool.family)


def family_offered(policy: Policy, family: Family) -> bool:
    """Is a tool of ``family`` offered (the framework guards' tools: the user's own, so
    only their family is known)? The same rules as ``permitted``: not disabled, not a
    writer in read-only, and with ``enabled`` set, some enabled Bastion tool has it."""
    if disabled(policy, family) or (read_only(policy) and family in READ_ONLY_HIDDEN):
        return False
    if policy.enabled is None:
        return True
    return any(tool.family is family and tool.name in policy.enabled for tool in TOOL_CLASSES)


def unknown_tool(name: str, offered: Iterable[str]) -> Evaluation:
    """The refusal of a call to a tool that is not offered here (unknown, or not enabled)."""
    names = ", ".join(sorted(offered)) or "none"
    message = f"unknown tool {name!r}: not offered here (tools: {names})"
    reason = Reason(Decision.DENY, UNKNOWN_TOOL_RULE, "built-in", name, message)
    return Evaluation(Decision.DENY, (reason,), (Effect.UNKNOWN,), marker=MARKER_DENIED)


def disabled(policy: Policy, family: Family) -> bool:
    """True when the last word on ``family`` is a ``[[rule]]`` deny with no pattern.

    A later rule for the same tool (say, an allow with a pattern) leaves the tool offered.
    """
    last = None
    for rule in policy.rules:
        if rule.tool == family.value:
            last = rule
    return last is not None and last.pattern is None and last.action is RuleAction.DENY


def registry(
    configuration: Configuration,
    *,
    authorizer: Authorizer | None = None,
    runner: Runner | None = None,
    resolver: Resolver | None = None,
    cwd: str | None = None,
    environ: Mapping[str, str] | None = None,
    interactive: bool = False,
) -> list[Tool]:
    """The tools offered (``permitted``). ``runner`` None picks one (``select_runner``); without a usable
    runner ``exec``, ``code`` and ``install`` are not offered, unless BASTION_REQUIRE_SANDBOX=1, which
    makes that an error. ``authorizer`` None decides with the gate alone (ASK = no)."""
    environ = os.environ if environ is None else environ
    policy = configuration.policy
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
        configuration=configuration,
        authorizer=authorizer,
        runner=runner,
        resolver=resolver,
        cwd=os.path.abspath(cwd or policy.workspace[0]),
        environ=environ,
        interactive=interactive,
    )
    return [
        cls(ctx)
        for cls in TOOL_CLASSES
        if permitted(policy, cls) and (runner is not None or cls.family not in NEEDS_RUNNER)
    ]
