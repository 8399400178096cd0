"""``install`` (a package manager, plain package names) and ``detect_tools`` (what exists).

An install is the ``install`` family's decision: the names are validated in the core
(``bastion.policy.packages``), it always asks (a standing grant names the manager and the
exact packages), and it is refused when nobody can be asked. Once allowed it runs inside
the sandbox with the workspace writable and network only through the egress proxy, and the
proxy lets the run reach that manager's registry hosts and nothing else: any other host is
refused whatever the network policy says, and the policy's denials still hold for the
registry. Output is capped.

``detect_tools`` looks up known package managers and runtimes on ``PATH`` (the file exists
and has its exec bit); it runs none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shutil
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.errors import BastionError
from bastion.exec.boundary import build_spec
from bastion.exec.bubblewrap import visible
from bastion.exec.limits import SYSTEM_PATH
from bastion.exec.profile import Filesystem, Profile
from bastion.exec.protected import ScanBudgetExceeded
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.policy.judge import GateWrapper, Judge
from bastion.policy.packages import MANAGERS, MAX_PACKAGES, Manager
from bastion.tools.base import Tool, ToolError, ToolResult, hints
from bastion.tools.egress_run import connection_host, keeper_of
from bastion.tools.process_tools import _TIMEOUT, _ProcessTool, not_checked, result_of
from bastion.tools.schema import obj, validate

if TYPE_CHECKING:
    pass

#: An install's output is for a person to skim, not a log to keep.
MAX_INSTALL_OUTPUT = 256 * 1024
_SYSTEM_PREFIXES = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/")
SOURCE = "install tool"


class RegistryGate(GateWrapper):
    """The proxy's gate for one install: the manager's registry hosts only.

    A registry host is allowed for this run (the person approved the install) unless the
    policy denies it outright; every other host is denied, even one the policy would allow."""

    def __init__(self, inner: Judge, manager: Manager) -> None:
        super().__init__(inner)
        self.manager = manager

    def around(self, inner: Judge) -> RegistryGate:
        return RegistryGate(inner, self.manager)

    def judged(self, call: ToolCall, inner: Callable[[ToolCall], Evaluation]) -> Evaluation:
        try:
            host = connection_host(call)
        except Exception as exc:  # fail closed
            return _deny("install.registry-only", "", f"not a connection this install may make: {exc}")
        if host not in self.manager.hosts:
            hosts = ", ".join(self.manager.hosts)
            message = f"an install with {self.manager.name} reaches only its registry ({hosts}), not {host}"
            return _deny("install.registry-only", host, message)
        # Asked as if a person were there: a host the policy would ask about is what the
        # person approved with the install; only a real denial (deny_hosts, a blocked
        # address, the mode) stands, never the unattended default.
        evaluation = inner(dataclasses.replace(call, interactive=True))
        if evaluation.decision is Decision.DENY:
            return evaluation
        message = f"{host} is {self.manager.name}'s registry, for the install a person approved"
        reason = Reason(Decision.ALLOW, "install.registry", SOURCE, host, message)
        return Evaluation(Decision.ALLOW, (reason,), evaluation.effects)


def _deny(rule: str, matched: str, message: str) -> Evaluation:
    from bastion.call.effects import Effect
    from bastion.policy.decision import MARKER_DENIED

    reason = Reason(Decision.DENY, rule, SOURCE, matched, message)
    return Evaluation(Decision.DENY, (reason,), (Effect.NETWORK,), marker=MARKER_DENIED)


def mounted_prefix(executable: str, hidden: tuple[str, ...]) -> tuple[str, ...]:
    """What to mount read-only so a manager outside the system dirs can run: its install
    prefix (``…/venv`` for ``…/venv/bin/pip``), or only its own directory when the prefix
    would also expose a hidden path (a HOME holding credentials)."""
    real = os.path.realpath(executable)
    if real.startswith(_SYSTEM_PREFIXES):
        return ()
    bindir = os.path.dirname(real)
    prefix = os.path.dirname(bindir)
    covers = any(h == prefix or h.startswith(prefix.rstrip("/") + "/") for h in hidden)
    return (bindir,) if covers or prefix == "/" else (prefix,)


class InstallTool(_ProcessTool):
    name = "install"
    family = Family.INSTALL
    description = (
        "Install packages with a package manager (pip, npm, cargo, gem, apt) inside the "
        "sandbox. Plain package names only, with an optional exact pin (requests==2.32.3, "
        "left-pad@1.3.0); no flags, paths or URLs. A person confirms every install; the run "
        "reaches only that manager's registry."
    )
    annotations = hints(read_only=False, destructive=True, idempotent=True, open_world=True)

    def build_schema(self) -> dict[str, Any]:
        packages = {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_PACKAGES}
        return obj(
            {
                "manager": {"type": "string", "enum": list(MANAGERS)},
                "packages": packages,
                "timeout": _TIMEOUT,
            },
            ("manager", "packages"),
        )

    def call_args(self, args: Mapping[str, Any]) -> dict[str, Any]:
        return {"manager": args["manager"], "packages": list(args["packages"])}

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        manager = MANAGERS[args["manager"]]
        path = self.ctx.environ.get("PATH") or SYSTEM_PATH
        found = shutil.which(manager.argv[0], path=path)
        if found is None:
            raise ToolError(f"{manager.argv[0]} is not installed here (detect_tools lists what is)")
        argv = [found, *manager.argv[1:], *args["packages"]]
        profile = Profile(Filesystem.WORKSPACE_WRITE, manager.hosts)
        try:
            spec = build_spec(
                self.ctx.policy, self.ctx.config, argv, cwd=call.cwd, timeout=args.get("timeout"),
                environ=self.ctx.environ, profile=profile,
            )  # fmt: skip
        except ScanBudgetExceeded as exc:
            return not_checked(exc)
        # A manager the sandbox already sees (a venv in the workspace) keeps its mounts, so
        # it can install into its own, writable, prefix.
        extra = () if visible(found, spec) else mounted_prefix(found, spec.hidden_paths)
        spec = dataclasses.replace(
            spec,
            readonly_roots=(*spec.readonly_roots, *extra),
            max_output_bytes=min(spec.max_output_bytes, MAX_INSTALL_OUTPUT),
        )
        with contextlib.ExitStack() as stack:
            egress = self._egress(stack, manager, call)
            spec = dataclasses.replace(spec, network=False, egress=egress)
            run = await asyncio.to_thread(self.runner.run, spec)
        result = result_of(run)
        data = {**result.data, "manager": manager.name, "registry": list(manager.hosts)}
        return dataclasses.replace(result, data=data)

    def _egress(self, stack: contextlib.ExitStack, manager: Manager, call: ToolCall) -> Any:
        """An egress proxy for this run that reaches only ``manager``'s registry hosts;
        every connection is decided (and recorded) by a sibling of the tools' Gatekeeper."""
        from bastion.construct import open_gatekeeper, sibling
        from bastion.exec.egress.session import EgressSession

        keeper = keeper_of(self.ctx.authorizer)
        if keeper is None:
            keeper = stack.enter_context(open_gatekeeper(self.ctx.configuration))
        guarded = sibling(keeper, RegistryGate(keeper.gate, manager))
        session = EgressSession(
            guarded, resolver=self.ctx.resolver, dialer=self.ctx.dialer, cwd=call.cwd,
            agent=call.agent or "install", interactive=False,
        )  # fmt: skip
        return stack.enter_context(session).binding


#: What detect_tools looks for besides the managers: language runtimes and build tools.
RUNTIMES = (
    "python3", "python", "node", "deno", "bun", "ruby", "perl", "php", "java", "go",
    "rustc", "cargo", "gcc", "cc", "make", "bash", "sh", "git",
)  # fmt: skip
#: Managers the install tool does not run, reported so the agent knows they exist.
OTHER_MANAGERS = ("pipx", "uv", "poetry", "yarn", "pnpm", "bundle", "composer", "brew", "dnf", "apk")


class DetectToolsTool(Tool):
    """Read-only and allowed: a PATH lookup reads no file and runs nothing."""

    name = "detect_tools"
    family = Family.LIST
    description = (
        "Which package managers and language runtimes exist here: each name looked up on "
        "PATH (a file with its exec bit); nothing is run. 'installable' lists the managers "
        "the install tool accepts."
    )
    annotations = hints(read_only=True, destructive=False, idempotent=True, open_world=False)

    def build_schema(self) -> dict[str, Any]:
        return obj({})

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        path = self.ctx.environ.get("PATH") or SYSTEM_PATH
        managers = {name: shutil.which(m.argv[0], path=path) for name, m in MANAGERS.items()}
        others = {name: shutil.which(name, path=path) for name in OTHER_MANAGERS}
        runtimes = {name: shutil.which(name, path=path) for name in RUNTIMES}
        lines = [f"{name}\t{where or '-'}" for name, where in {**managers, **others, **runtimes}.items()]
        data = {
            "managers": {**managers, **others},
            "runtimes": runtimes,
            "installable": [name for name, where in managers.items() if where],
        }
        return ToolResult(ok=True, decision="allow", stdout="\n".join(lines) + "\n", data=data)

    async def run(self, args: Mapping[str, Any], *, cwd: str | None = None) -> dict[str, Any]:
        try:
            clean = validate(self.name, self.schema, args)
        except BastionError as exc:
            return ToolResult(ok=False, decision="deny", message=str(exc)).to_json()
        reason = Reason(
            Decision.ALLOW,
            "tools.detect",
            "built-in",
            "PATH",
            "a PATH lookup (exec bits only): nothing is run",
        )
        call = ToolCall(tool=self.family.value, args={}, cwd=cwd or self.ctx.cwd)
        result = await self.execute(clean, call, Evaluation(Decision.ALLOW, (reason,), ()))
        return {**result.to_json(), "reasons": [reason.to_json()]}
