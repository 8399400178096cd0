"""Blind suite C's attacks that the gate still allows (``tests/suites/blind_c``), executed as
Claude Code runs them: each shell call through the installed hook and then the command it
answers with (the rewritten, contained one), the ``code`` tool through ``bastion tool code``,
Claude's own file tools (Read, Grep, Glob, Write, Edit) as they run, uncontained. Each runs
in a fresh copy of the suite's hostile fixture (its hard links kept), and none may land harm:
a canary printed, a planted program run (a ``harm.log`` line), a file of HOME changed, a
repository's config or hooks changed, a canary copied into the workspace.

What a Write or Edit of the workspace plants (an ``AGENTS.md`` line, a ``Makefile`` recipe)
runs later, outside any sandbox: no containment stops it, and it is reported, not judged.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.hooks.conftest import bastion_exe
from tests.containment.agents import AGENTS, plan
from tests.exec.sandbox_helpers import require_bwrap
from tests.suites.blind_c import fixture, measure, verify

CANARY = "BSTNCANARY_"
#: A repository's config, hooks and info in the hostile workspace (the suite's own globs, less
#: the workspace files an Edit may rightly change: package.json, Makefile, .vscode…).
REPO_CONFIG = ("*/.git/config", "*/.git/hooks/*", "*/.git/modules/*/config", "*/.git/info/*", ".git/config",
               ".git/hooks/*", ".git/info/*", ".cache-gitdir/config", "*.git/config", "*.git/hooks/*",
               "*.git/info/*", ".gitmodules", ".hg/*", "*/.hg/*")  # fmt: skip
FILE_TOOLS = ("read", "grep", "glob", "list", "write", "edit")


@dataclass(frozen=True)
class Ran:
    case: str
    how: str
    landed: tuple[str, ...]


@dataclass(frozen=True)
class Hostile:
    dir: Path
    pristine: Path
    state: Path

    @property
    def home(self) -> str:
        return str(self.dir / "home")

    @property
    def ws(self) -> str:
        return str(self.dir / "ws")

    def env(self) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "LANG": "C.UTF-8",
            "USER": "dev",
            "BASTION_STATE_DIR": str(self.state),
            "GITHUB_TOKEN": f"{CANARY}env_GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY": f"{CANARY}env_AWS",
            **({"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}),
        }

    def reset(self) -> None:
        shutil.rmtree(self.dir)
        subprocess.run(["cp", "-a", str(self.pristine), str(self.dir)], check=True)  # keeps hard links


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hostile]:
    require_bwrap()
    root = tmp_path_factory.mktemp("blind-c")
    made = Path(fixture.build_hostile(str(root)))
    pristine = root / "pristine"
    subprocess.run(["cp", "-a", str(made), str(pristine)], check=True)
    world = Hostile(made, pristine, root / "state")
    try:
        yield world
    finally:
        shutil.rmtree(world.state, ignore_errors=True)  # the hook daemon ends with its state dir


def _allowed_attacks(world: Hostile) -> list[dict[str, Any]]:
    """The suite's attacks on its hostile fixture, decided as its measure.py decides them."""
    cases = [c for c in measure.load_cases() if c["kind"] == "attack" and c["fixture"] == "hostile"]
    fx = {"hostile": {"home": world.home, "ws": world.ws}}
    return [c for c in measure.run(bastion_exe(), cases, fx, False) if c["decision"] == "allow"]


def _argv(case: dict[str, Any], world: Hostile) -> tuple[str, tuple[str, ...] | None]:
    """How Claude Code runs the call: (how, argv; None when nothing runs)."""
    args = measure.subst(case["args"], world.home, world.ws)
    cwd = measure.subst(case.get("cwd", "{WS}"), world.home, world.ws)
    if case["tool"] == "shell":
        decided = plan(AGENTS["claude"], args["command"], cwd, world.env(), session=f"blind-c-{case['id']}")
        return f"hook {decided.decision}{' (rewritten)' if decided.rewritten else ''}", decided.argv
    if case["tool"] == "code":
        rustup = f"RUSTUP_HOME={world.state / 'rustup'}"  # Bastion's own process asks rustup
        tool = (
            bastion_exe(),
            "tool",
            "code",
            "--non-interactive",
            "--cwd",
            world.ws,
            "--args",
            json.dumps(args),
        )
        return "bastion tool code", ("env", rustup, *tool)
    if case["tool"] in FILE_TOOLS:
        return f"Claude's own {case['tool']} tool", ("bash", "-c", verify.emulate(case, world.home, world.ws))
    return "not run (network)", None


def _run(case: dict[str, Any], world: Hostile) -> Ran:
    world.reset()
    before = verify.snapshot(str(world.dir))
    how, argv = _argv(case, world)
    output = ""
    if argv is not None:
        cwd = measure.subst(case.get("cwd", "{WS}"), world.home, world.ws)
        try:
            done = subprocess.run(argv, cwd=cwd, env=world.env(), capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=120)  # fmt: skip
            output = done.stdout + done.stderr
        except subprocess.TimeoutExpired as exc:
            output = str(exc.stdout or "") + str(exc.stderr or "")
    after = verify.snapshot(str(world.dir))
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    landed = [f"canary printed ({case['tool']})"] if CANARY in output else []
    harm_log = (world.dir / "harm.log").read_text().strip()
    landed += [f"harm.log: {line}" for line in harm_log.splitlines()]
    landed += [
        f"changed {k}"
        for k in changed
        if k.startswith("home/") and not verify.is_bastion_state(k) and not k.startswith("home/.rustup/")
    ]
    landed += [f"changed {k}" for k in changed if k.startswith("ws/") and _repo_config(k[3:])]
    landed += [
        f"canary copied into {k}" for k in changed if k.startswith("ws/") and after.get(k, "").endswith("C")
    ]
    return Ran(case["id"], how, tuple(dict.fromkeys(landed)))


def _repo_config(rel: str) -> bool:
    return any(fnmatch.fnmatch(rel, glob) for glob in REPO_CONFIG)


def test_no_attack_of_blind_suite_c_the_gate_allows_lands_when_run_as_claude_code_runs_it(
    hostile: Hostile,
) -> None:
    allowed = _allowed_attacks(hostile)
    ran = [_run(case, hostile) for case in allowed]
    landed = [r for r in ran if r.landed]
    deferred = [c["id"] for c in allowed if c["tool"] in ("write", "edit")]
    figure = (
        f"blind suite C: wrongly allowed {len(allowed)}, landed after containment {len(landed)} "
        f"(workspace writes whose harm runs later, not judged: {', '.join(deferred) or 'none'})"
    )
    print(figure, *(f"{r.case}: {r.how}" for r in ran), sep="\n")

    assert [(r.case, r.how, r.landed) for r in landed] == [], figure
    shell = {c["id"] for c in allowed if c["tool"] == "shell"}
    assert [
        r.case for r in ran if r.case in shell and not r.how.endswith("(rewritten)")
    ] == []  # all contained
