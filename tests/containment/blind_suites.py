"""The blind suites' attacks (``tests/suites/blind_*``) the gate allows, run for real as an agent
runs them, in a fresh copy of the suite's own hostile fixture, and what each one landed.

Each suite differs a little (see :data:`SUITES`): how its fixture is built and where it puts
HOME, the workspace and the log its planted programs append to (``harm.log``, suite A's
``pwned.log``); the form of its cases (``family``/``arg`` in A and B, ``tool``/``args`` in C and
D, whose ``exec`` is the agent's shell, the agents' own tool names in E: ``Bash``, ``Read``…, and
both in F and G); its canary (``BSTNCANARY_…``, A's ``CANARY-…-5ec7``)
and the agent's environment (tokens holding a canary; D's ``agent.env``). The rest is one
path for every suite:

* the attacks are decided in one ``bastion check --batch`` in the fixture, each call as its
  suite's ``measure.py`` sends it (placeholders ``{HOME}``/``{WS}``, a shell's own ``${HOME}``
  left alone; the case's cwd; interactive); those answered *allow* are the allowed attacks;
* each is run as Claude Code runs it: a shell call through the installed hook, then the
  command the hook answered with (rewritten to the contained line), see :func:`how_it_runs`;
  the ``code`` tool, and ``exec`` with a ``stdin``, through ``bastion tool`` (Bastion's gate and
  sandbox end to end, as its MCP tools run them); Claude's own file tools (Read, Grep, Glob,
  LS, Write, Edit) emulated as they run, uncontained; ``fetch`` is not run (no network);
* what it landed is judged in the fixture (``tests/containment/hostile.py``). What a Write or
  Edit tool plants in the workspace runs later, outside any sandbox: no containment stops
  it, so it is reported, not judged.

Every allowed attack goes through the hook: a prepared contained run costs about 0.25 s a
case with the fixture's copy and snapshots (an asked call's ``bastion sandbox run`` 0.5-1.6
s), so even a few hundred allowed attacks a suite stay within CI's budget and no sample is
needed. The fixture is copied back whenever a case changed it (its hard links kept).
"""

from __future__ import annotations

import gc
import json
import os
import re
import shlex
import subprocess
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.adapters.hooks.conftest import bastion_exe
from tests.containment.agents import AGENTS, plan
from tests.containment.hostile import Entry, Hostile, landed, snapshot
from tests.suites.blind_a import fixture as fixture_a
from tests.suites.blind_b import fixture as fixture_b
from tests.suites.blind_c import fixture as fixture_c
from tests.suites.blind_d import fixture as fixture_d
from tests.suites.blind_e import fixture as fixture_e
from tests.suites.blind_f import fixture as fixture_f
from tests.suites.blind_g import fixture as fixture_g
from tests.suites.blind_h import fixture as fixture_h
from tests.suites.blind_i import fixture as fixture_i
from tests.suites.blind_j import fixture as fixture_j

SUITES_DIR = Path(__file__).resolve().parent.parent / "suites"
FILE_TOOLS = ("read", "grep", "glob", "list", "write", "edit")
#: A run still going after this is stopped and judged as it stands: with no network, npm's
#: registry retries (`npm ping`, `npx -y PKG`) last over a minute and do nothing more; every
#: other allowed attack of the suites ends in under 2 s (measured 2026-12-07, suites A-I).
RUN_TIMEOUT = 10


@dataclass(frozen=True)
class Attack:
    """One attack of a suite, its placeholders filled: the call as the gate is asked it."""

    id: str
    tool: str  # shell, exec, code, read, grep, glob, list, write, edit, fetch
    args: Mapping[str, Any]
    cwd: str
    #: The call as the suite asks the gate, where it names the agent's own tool (suite E:
    #: ``Read`` with ``file_path``…); ``tool`` and ``args`` are then how it runs.
    asked: tuple[str, Mapping[str, Any]] | None = None

    @property
    def shell(self) -> bool:
        """A command an agent's shell runs (D's ``exec`` is its shell; with ``stdin`` it is not)."""
        return self.tool == "shell" or (self.tool == "exec" and "stdin" not in self.args)

    def line(self) -> str:
        """The JSON line ``bastion check --batch`` decides."""
        tool, args = self.asked or ("shell" if self.shell else self.tool, self.args)
        return json.dumps({"tool": tool, "args": dict(args), "cwd": self.cwd, "interactive": True})


@dataclass(frozen=True)
class Suite:
    name: str
    build: Callable[[Path, Path], Hostile]  # (a fresh folder, the hook's state dir)
    attacks: Callable[[list[dict[str, Any]], Hostile], list[Attack]]


def fill(value: Any, home: Path, ws: Path) -> Any:
    """``{HOME}`` and ``{WS}`` filled in, at any depth; a shell's own ``${HOME}`` left alone."""
    if isinstance(value, str):
        value = re.sub(r"(?<!\$)\{HOME\}", lambda _: str(home), value)
        return re.sub(r"(?<!\$)\{WS\}", lambda _: str(ws), value)
    if isinstance(value, dict):
        return {k: fill(v, home, ws) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, home, ws) for v in value]
    return value


def _family_attacks(key: Mapping[str, str], edit: tuple[str, str]) -> Callable[..., list[Attack]]:
    """Suites A and B: ``family``, one ``arg`` (the argument ``key`` names), a cwd relative to
    the workspace; a write writes ``x``, an edit replaces ``edit[0]`` with ``edit[1]``."""

    def attacks(cases: list[dict[str, Any]], world: Hostile) -> list[Attack]:
        out = []
        for case in cases:
            family = case["family"]
            args: dict[str, Any] = {key.get(family, "command"): fill(case["arg"], world.home, world.ws)}
            if family == "write":
                args["content"] = "x\n"
            if family == "edit":
                args.update(old_string=edit[0], new_string=edit[1])
            out.append(Attack(case["id"], family, args, os.path.normpath(world.ws / case["cwd"])))
        return out

    return attacks


def _tool_attacks(cases: list[dict[str, Any]], world: Hostile) -> list[Attack]:
    """Suites C and D: ``tool`` and ``args``; C's cwd is a placeholder path, D's the workspace."""
    return [
        Attack(
            c["id"],
            c["tool"],
            fill(c["args"], world.home, world.ws),
            fill(c.get("cwd", "{WS}"), world.home, world.ws),
        )
        for c in cases
    ]


FILE_ARG = {"shell": "command", "read": "path", "list": "path", "glob": "pattern", "grep": "path",
            "write": "path", "edit": "path", "fetch": "url"}  # fmt: skip
BSTN = re.compile(rb"BSTNCANARY_[A-Za-z0-9_.-]*")


def _build_a(root: Path, state: Path) -> Hostile:
    made = fixture_a.build(root / "hostile", "hostile")
    env = {
        "GITHUB_TOKEN": fixture_a.canary("session-env"),
        "AWS_SECRET_ACCESS_KEY": fixture_a.canary("session-aws"),
    }
    canary = re.compile(rb"CANARY-[a-z0-9-]+-" + fixture_a.CANARY_SUFFIX.encode())
    return Hostile(made["root"], made["home"], made["ws"], made["pwned"], canary, env, state)


def _build_b(root: Path, state: Path) -> Hostile:
    with warnings.catch_warnings():  # its fixture leaves files for the collector to close
        warnings.simplefilter("ignore", ResourceWarning)
        made = fixture_b.build(str(root))["hostile"]
        gc.collect()
    home = Path(made["home"])
    env = {"GITHUB_TOKEN": "BSTNCANARY_env_github_token", "AWS_SECRET_ACCESS_KEY": "BSTNCANARY_env_aws"}
    return Hostile(home.parent, home, Path(made["ws"]), Path(made["log"]), BSTN, env, state)


def _build_c(root: Path, state: Path) -> Hostile:
    made = Path(fixture_c.build_hostile(str(root)))
    env = {"GITHUB_TOKEN": "BSTNCANARY_env_GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY": "BSTNCANARY_env_AWS"}
    return Hostile(made, made / "home", made / "ws", made / "harm.log", BSTN, env, state)


def _build_d(root: Path, state: Path) -> Hostile:
    made = fixture_d.build(str(root))["hostile"]
    base = Path(made["root"])
    env = json.loads((base / "agent.env").read_text())
    return Hostile(base, Path(made["home"]), Path(made["ws"]), base / "harm.log", BSTN, env, state)


#: Suite E names each agent's own tool: how it runs here (the rest, web fetches and an MCP
#: server's git, are not run).
AGENT_TOOLS = {"Bash": "shell", "run_shell_command": "shell", "Read": "read", "read_file": "read",
               "NotebookRead": "read", "mcp__filesystem__read_text_file": "read", "Write": "write",
               "write_file": "write", "mcp__filesystem__write_file": "write", "Edit": "edit",
               "MultiEdit": "edit", "Grep": "grep", "Glob": "glob", "LS": "list"}  # fmt: skip


def _agent_tool_attacks(cases: list[dict[str, Any]], world: Hostile) -> list[Attack]:
    """Suite E: the agents' own tools and argument names; every call's cwd the workspace."""
    out = []
    for case in cases:
        args = fill(case["args"], world.home, world.ws)
        path = next(
            (args[k] for k in ("file_path", "absolute_path", "notebook_path", "path") if k in args), None
        )
        runs = dict(args) if path is None else {**args, "path": path}
        tool = AGENT_TOOLS.get(case["tool"], case["tool"])
        if case["tool"] == "exec_command" and isinstance(args.get("cmd"), list):
            # Codex's shell tool (suite J): an argv, run as the shell line that spells it
            tool, runs = "shell", {"command": shlex.join(str(word) for word in args["cmd"])}
        out.append(Attack(case["id"], tool, runs, str(world.ws), (case["tool"], args)))
    return out


def _build_e(root: Path, state: Path) -> Hostile:
    made = fixture_e.build(str(root), only=["hostile"])["hostile"]
    fix = Path(made.fix)
    env = {"GITHUB_TOKEN": "BSTNCANARY_env_GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY": "BSTNCANARY_env_AWS"}
    return Hostile(fix, Path(made.home), Path(made.ws), Path(made.harm), BSTN, env, state)


def _build_f(root: Path, state: Path) -> Hostile:
    fix = Path(fixture_f.build_one(str(root), "hostile"))
    env = {
        "GITHUB_TOKEN": "BSTNCANARY_env_github_token",
        "AWS_SECRET_ACCESS_KEY": "BSTNCANARY_env_aws_secret",
    }
    return Hostile(fix, fix / "home", fix / "ws", fix / "harm.log", BSTN, env, state)


def _build_g(root: Path, state: Path) -> Hostile:
    fixture_g.build(root)  # its three machines (about a second); the hostile one is attacked
    fix = root.resolve() / "hostile"
    env = {"GITHUB_TOKEN": "BSTNCANARY_env_github_token", "AWS_SECRET_ACCESS_KEY": "BSTNCANARY_env_aws"}
    return Hostile(fix, fix / "home", fix / "ws", fix / "harm.log", BSTN, env, state)


def _build_h(root: Path, state: Path) -> Hostile:
    fixture_h.build(str(root))  # its three machines; the hostile one is attacked
    fix = root.resolve() / "hostile"
    env = {"GITHUB_TOKEN": "BSTNCANARY_env_github_token"}  # what its measure.py gives the agent
    return Hostile(fix, fix / "home", fix / "ws", fix / "harm.log", BSTN, env, state)


def _build_i(root: Path, state: Path) -> Hostile:
    fixture_i.build(root)  # its three machines; the hostile one is attacked
    fix = root.resolve() / "hostile"
    env = {"GITHUB_TOKEN": "ghp_BSTNCANARY_env_github_token"}  # what its measure.py gives the agent
    # Its planted programs log "RAN name" inside the workspace, where a contained run may
    # write: running there is what containment allows, so only what outlasts it is judged
    # (the harm log given here is never written).
    return Hostile(fix, fix / "home", fix / "ws", fix / "harm.log", BSTN, env, state)


def _build_j(root: Path, state: Path) -> Hostile:
    fixture_j.build(root)  # its three machines; the hostile one is attacked
    fix = root.resolve() / "hostile"
    env = {"GITHUB_TOKEN": "ghp_BSTNCANARY_env_github_token"}  # what its measure.py gives the agent
    # As I's, its planted programs log inside the workspace: only what outlasts the run counts.
    return Hostile(fix, fix / "home", fix / "ws", fix / "harm.log", BSTN, env, state)


SUITES = {
    "blind_a": Suite("blind_a", _build_a, _family_attacks(FILE_ARG, ("x", "y"))),
    "blind_b": Suite("blind_b", _build_b, _family_attacks(FILE_ARG, ("a", "b"))),
    "blind_c": Suite("blind_c", _build_c, _tool_attacks),
    "blind_d": Suite("blind_d", _build_d, _tool_attacks),
    "blind_e": Suite("blind_e", _build_e, _agent_tool_attacks),
    "blind_f": Suite("blind_f", _build_f, _agent_tool_attacks),  # family names and agents' tools
    "blind_g": Suite("blind_g", _build_g, _agent_tool_attacks),
    "blind_h": Suite("blind_h", _build_h, _agent_tool_attacks),
    "blind_i": Suite("blind_i", _build_i, _agent_tool_attacks),
    "blind_j": Suite("blind_j", _build_j, _agent_tool_attacks),
}


def hostile_attacks(suite: Suite, world: Hostile) -> list[Attack]:
    """The suite's attacks on its hostile fixture (every one of its attacks is on it)."""
    lines = (SUITES_DIR / suite.name / "cases.jsonl").read_text().splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return suite.attacks([c for c in cases if c["kind"] == "attack" and c["fixture"] == "hostile"], world)


def allowed(attacks: list[Attack], world: Hostile) -> list[Attack]:
    """The attacks the gate allows, decided in one ``bastion check --batch`` in the fixture."""
    lines = "".join(a.line() + "\n" for a in attacks)
    done = subprocess.run([bastion_exe(), "check", "--batch", "-"], input=lines, capture_output=True, text=True,
                          cwd=world.ws, env=world.env(), timeout=600)  # fmt: skip
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(attacks), done.stderr[-2000:]
    return [a for a, answer in zip(attacks, answers, strict=True) if answer.get("decision") == "allow"]


@dataclass(frozen=True)
class Ran:
    case: str
    how: str
    landed: tuple[str, ...]


def how_it_runs(attack: Attack, world: Hostile) -> tuple[str, tuple[str, ...] | None]:
    """How Claude Code (or Bastion's own tool, where Claude has none) runs the call: (how,
    argv; None when nothing runs)."""
    if attack.shell:
        command = str(attack.args["command"])
        decided = plan(AGENTS["claude"], command, attack.cwd, world.env(), session=f"blind-{attack.id}")
        return f"hook {decided.decision}{' (rewritten)' if decided.rewritten else ''}", decided.argv
    if attack.tool in ("code", "exec"):
        rustup = f"RUSTUP_HOME={world.state / 'rustup'}"  # Bastion's own process asks rustup
        tool = (bastion_exe(), "tool", attack.tool, "--non-interactive", "--cwd", attack.cwd,
                "--args", json.dumps(dict(attack.args)))  # fmt: skip
        return f"bastion tool {attack.tool}", ("env", rustup, *tool)
    if attack.tool in FILE_TOOLS:
        return f"Claude's own {attack.tool} tool", ("bash", "-c", emulate(attack, world.ws))
    return "not run (network)", None


_GREP_MODES = {"content": "n", "count": "c", "files_with_matches": "l"}


def emulate(attack: Attack, ws: Path) -> str:
    """Shell text that does what Claude's own file tool does with the call."""
    a = attack.args

    def q(s: Any) -> str:
        return "'" + str(s).replace("'", "'\\''") + "'"

    where = q(a.get("path", ws))
    return {
        "read": lambda: f"cat -- {q(a.get('path'))}",
        # Claude's Grep prints the matching lines only with output_mode content; by default
        # the names of the files that match (files_with_matches), or counts.
        "grep": lambda: (
            f"grep -r{_GREP_MODES.get(str(a.get('output_mode')), 'l')} -- {q(a.get('pattern', '.'))} {where}"
        ),
        "glob": lambda: (
            f"shopt -s globstar dotglob nullglob; cd -- {where} && printf '%s\\n' {a.get('pattern')}"
        ),
        "list": lambda: f"ls -la -- {where}/",
        "write": lambda: (
            f'mkdir -p -- "$(dirname {q(a["path"])})" && printf %s {q(a["content"])} > {q(a["path"])}'
        ),
        "edit": lambda: (
            "python3 -I -c 'import sys,json;p,e=sys.argv[1:];s=open(p).read()\n"
            'for x in json.loads(e): s=s.replace(x["old_string"],x["new_string"],1)\n'
            'open(p,"w").write(s)\' '
            f"{q(a['path'])} {q(json.dumps(a.get('edits') or [a]))}"
        ),
    }[attack.tool]()


def run_all(attacks: list[Attack], world: Hostile) -> list[Ran]:
    """Run each attack in a fresh copy of the fixture (copied again only when the last one
    changed it), as it runs, and find what it landed."""
    world.reset()
    pristine = snapshot(world)
    ran = []
    for attack in attacks:
        result, after = run(attack, world, pristine)
        ran.append(result)
        if after != pristine:
            world.reset()
    return ran


#: How a call runs: (how, argv; None when nothing runs).
Runs = Callable[[Attack, Hostile], tuple[str, tuple[str, ...] | None]]


def run(
    attack: Attack, world: Hostile, before: dict[str, Entry], runs: Runs | None = None
) -> tuple[Ran, dict[str, Entry]]:
    """Run ``attack`` in the fixture as it is now (``before``), as ``runs`` says (by default as
    it runs: :func:`how_it_runs`); what it landed, and the fixture after it."""
    how, argv = (runs or how_it_runs)(attack, world)
    output = b""
    if argv is not None:
        try:
            done = subprocess.run(argv, cwd=attack.cwd, env=world.env(), capture_output=True,
                                  stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT)  # fmt: skip
            output = done.stdout + done.stderr
        except subprocess.TimeoutExpired as exc:
            output = (exc.stdout or b"") + (exc.stderr or b"")
    after = snapshot(world)
    contained = attack.tool not in FILE_TOOLS
    return Ran(attack.id, how, landed(world, output, before, after, contained=contained)), after
