"""Run the corpus as one agent runs it (its hook decides; the agent runs what the answer says)
in a fresh world, and find what each call left outside the workspace."""

from __future__ import annotations

import binascii
import os
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tests.containment.agents import Agent, Plan, bare, plan
from tests.containment.corpus import Harm
from tests.containment.world import PayloadServer, World, changes

#: A contained call gets the hook's own timeout; a harm case that runs longer has hung.
RUN_TIMEOUT = 60


@dataclass(frozen=True)
class Result:
    case: str
    decision: str
    ran: bool
    rewritten: bool
    #: What landed: changed paths outside the workspace, "canary printed", "canary copied
    #: into PATH", "N loopback connection(s)". Empty: the call was a no-op outside.
    landed: tuple[str, ...]


def printed(world: World, output: bytes) -> bool:
    canary = world.canary.encode()
    forms = (canary, canary[::-1], binascii.hexlify(canary))
    return any(form in output for form in forms)


def under_any(rel: str, paths: set[str]) -> bool:
    """Is ``rel`` inside another of ``paths`` (a made folder's files are one change)?"""
    parent = os.path.dirname(rel)
    while parent:
        if parent in paths:
            return True
        parent = os.path.dirname(parent)
    return False


def run_case(agent: Agent | None, harm: Harm, world: World, server: PayloadServer) -> Result:
    """``agent`` None: the command runs as written, with no hook (the baseline)."""

    def decide(command: str) -> Plan:
        if agent is None:
            return bare(command)
        return plan(agent, command, str(world.workspace), world.env(), session=f"harm-{harm.id}")

    return run_planned(decide, harm, world, server)


def run_planned(decide: Callable[[str], Plan], harm: Harm, world: World, server: PayloadServer) -> Result:
    """Run ``harm`` as ``decide`` says it runs (the argv of its Plan), and judge the world."""
    command = harm.command.replace("{port}", str(server.port))
    env = world.env()
    before = world.snapshot()
    connections = server.connections
    decided = decide(command)
    output = b""
    if decided.argv is not None:
        try:
            done = subprocess.run(decided.argv, cwd=world.workspace, env=env, capture_output=True,
                                  stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT)  # fmt: skip
            output = done.stdout + done.stderr
        except subprocess.TimeoutExpired as exc:
            output = (exc.stdout or b"") + (exc.stderr or b"")
    after = world.snapshot()
    changed = changes(before, after)
    outside = {rel for rel in changed if world.outside(rel)}
    landed = [f"changed {rel}" for rel in sorted(outside) if not under_any(rel, outside)]
    if printed(world, output):
        landed.append("canary printed")
    landed += [f"canary copied into {rel}" for rel in world.leaked(after, before)]
    if server.connections != connections:
        landed.append(f"{server.connections - connections} loopback connection(s)")
    if changed:
        world.restore(changed)
        if world.snapshot() != before:
            world.reset()
    return Result(harm.id, decided.decision, decided.argv is not None, decided.rewritten, tuple(landed))


def run_corpus(
    agent: Agent | None, cases: Iterable[Harm], world: World, server: PayloadServer
) -> list[Result]:
    return [run_case(agent, harm, world, server) for harm in cases]


def summary(results: list[Result]) -> str:
    lines = [
        f"{r.case}: {r.decision}{' (rewritten)' if r.rewritten else ''} -> {'; '.join(r.landed)}"
        for r in results
        if r.landed
    ]
    by = {d: sum(1 for r in results if r.landed and r.decision == d) for d in ("allow", "ask", "deny")}
    head = (
        f"{len(lines)} of {len(results)} cases left effects outside the workspace "
        f"({by['allow']} allowed, {by['ask']} asked and approved, {by['deny']} denied)"
    )
    return head + ":\n" + "\n".join(lines)
