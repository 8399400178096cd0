"""``bastion learn``: on a ledger of ≥ 50 approvals, the learned rules cut the asks on the
held-out half of the same session, never allow what a person denied or a hardline class
covers, and pass ``bastion policy test``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app
from bastion.approval.model import ApprovalRequest, PermissionDecision
from bastion.call.model import ToolCall
from bastion.configuration import Configuration, load_policy
from bastion.construct import open_gatekeeper
from bastion.evidence import ledger
from bastion.evidence.learn import Learned, asks, evaluate, learn, shell_candidates, star_safe
from bastion.evidence.model import Outcome, Proposed
from bastion.policy.decision import Decision

#: What the person approves every time it comes up, and what they refuse.
APPROVED = (
    [
        ("shell", {"command": c})
        for c in ("npm test", "npm test -- --watch", "npm run build", "make build", "make test", "make lint")
    ]
    + [("shell", {"command": f"pytest tests/test_{m}.py -q"}) for m in ("api", "cli", "db", "auth")]
    + [("shell", {"command": f"truncate -s 0 build/{d}"}) for d in ("a", "b", "c")]
    + [("fetch", {"url": f"https://docs.python.org/3/library/{m}.html"}) for m in ("os", "re", "json", "sys")]
    + [
        ("mcp", {"server": "docs", "tool": "search", "arguments": {"q": q}})
        for q in ("toml", "typer", "rich")
    ]
    + [("read", {"path": f"/usr/share/doc/{p}/README"}) for p in ("git", "make", "bash")]
)
DENIED = [
    ("shell", {"command": c})
    for c in (
        "git push --force origin main",
        "npm publish",
        "rm -rf build",
        "make install",
        "npm test -- --updateSnapshot --ci",
    )
] + [
    ("fetch", {"url": "https://pastebin.com/raw/x1"}),
    ("mcp", {"server": "docs", "tool": "drop_index", "arguments": {}}),
]
HARDLINE = [("shell", {"command": "rm -rf ~"}), ("shell", {"command": "cat ~/.ssh/id_rsa"})]


def _session(seed: int = 18, size: int = 160) -> list[tuple[str, dict[str, Any], bool]]:
    """A fixed-seed session: mostly approved work, some refusals, a few hardline attempts."""
    rng = random.Random(seed)
    out = []
    for _ in range(size):
        roll = rng.random()
        pool, ok = (APPROVED, True) if roll < 0.8 else (DENIED, False) if roll < 0.95 else (HARDLINE, False)
        tool, args = rng.choice(pool)
        out.append((tool, args, ok))
    return out


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}


def _record(calls: list[tuple[str, dict[str, Any], bool]], workspace: Path, env: dict[str, str]) -> None:
    """Run the session through the real Gatekeeper; the person answers every parked ask."""
    answer = {"ok": False}

    def person(request: ApprovalRequest) -> PermissionDecision:
        return PermissionDecision("once" if answer["ok"] else "reject")

    policy = load_policy(cwd=str(workspace), env=env)
    with open_gatekeeper(Configuration(policy), env, on_permission=person) as keeper:
        for tool, args, ok in calls:
            answer["ok"] = ok
            keeper.request_sync(ToolCall(tool, args, cwd=str(workspace), interactive=True))


def _split(workspace: Path, env: dict[str, str]) -> tuple[list[Proposed], list[Proposed]]:
    session = _session()
    _record(session, workspace, env)
    calls = ledger.from_store(env, default_cwd=str(workspace))
    assert len(calls) == len(session)
    half = len(calls) // 2
    return calls[:half], calls[half:]


def test_learn_cuts_the_asks_on_the_held_out_half_and_never_allows_a_denial(
    workspace: Path, env: dict[str, str]
) -> None:
    train, held_out = _split(workspace, env)
    load = lambda cwd: load_policy(cwd=cwd, env=env)  # noqa: E731
    approvals = sum(1 for c in train + held_out if c.outcome is Outcome.APPROVED)

    report = learn(load, train)
    before = evaluate(load, held_out, [])
    after = evaluate(load, held_out, report.rules)

    assert approvals >= 100  # ≥ 50 in the half learned from
    assert sum(1 for c in train if c.outcome is Outcome.APPROVED) >= 50
    share = (asks(before) - asks(after)) / asks(before)
    assert share >= 0.6, f"asks on the held-out half: {asks(before)} → {asks(after)}"
    newly_allowed = [
        a
        for b, a in zip(before, after, strict=True)
        if a.replayed.decision is Decision.ALLOW and b.replayed.decision is not Decision.ALLOW
    ]
    assert [a for a in newly_allowed if a.outcome is Outcome.DENIED] == []
    assert [a for a in newly_allowed if a.replayed.evaluation.hardline] == []
    assert all(
        e.replayed.decision is Decision.DENY
        for e in after
        if e.replayed.proposed.args.get("command") in ("rm -rf ~", "cat ~/.ssh/id_rsa")
    )


def test_the_learned_rules_pass_policy_test_and_say_where_they_came_from(
    workspace: Path, env: dict[str, str], tmp_path: Path
) -> None:
    train, _ = _split(workspace, env)
    report = learn(lambda cwd: load_policy(cwd=cwd, env=env), train)
    path = tmp_path / "learned.toml"
    path.write_text(report.toml())

    done = CliRunner().invoke(build_app(), ["policy", "test", str(path), "--json"], env=env)

    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    assert result["ok"] is True
    assert {r.pattern: r.not_match[:1] for r in report.rules} == {
        "docs.python.org": ("https://pastebin.com/raw/x1",),
        "docs/search": ("docs/drop_index",),
        "/usr/share/doc/git/README": (),
        "/usr/share/doc/bash/README": (),
        "/usr/share/doc/make/README": (),
        # pytest's option table has options that run code (-p PLUGIN): no `pytest *`, exact calls
        "pytest tests/test_auth.py -q": ("git push --force origin main",),
        "pytest tests/test_cli.py -q": ("git push --force origin main",),
        "truncate *": ("git push --force origin main",),
        "npm test": ("npm publish",),
        "npm run build": ("npm publish",),
        "make lint": ("make install",),
        "make test": ("make install",),
    }
    assert all(r.match and r.approvals >= 2 for r in report.rules)


def test_a_flag_that_raises_the_effect_is_never_absorbed_by_a_star() -> None:
    patterns = dict(
        shell_candidates(
            [
                "sed s/a/b/ f",
                "sed -n p f",
                "find . -name x",
                "find . -type f",
                "git push origin main",
                "git push origin dev",
            ]
        )
    )

    assert [p for p in patterns if p.endswith("*")] == []
    assert (star_safe(("sed",)), star_safe(("find",)), star_safe(("git", "push"))) == (False, False, False)
    assert star_safe(("pytest",)) is False  # `-p PLUGIN`, `--rootdir`…: options that raise the effect


def test_a_call_a_person_denied_even_once_is_never_learned(workspace: Path, env: dict[str, str]) -> None:
    load = lambda cwd: load_policy(cwd=cwd, env=env)  # noqa: E731
    answers = (
        [("make build", Outcome.APPROVED)] * 2
        + [("make test", Outcome.APPROVED)] * 3
        + [("make test", Outcome.DENIED), ("make install", Outcome.DENIED)]
    )
    calls = [
        Proposed(f"t:{n}", "bastion", "shell", {"command": c}, cwd=str(workspace), outcome=o)
        for n, (c, o) in enumerate(answers, 1)
    ]

    report = learn(load, calls)

    assert [(r.pattern, r.approvals, r.not_match) for r in report.rules] == [
        ("make build", 2, ("make install", "make test"))
    ]
    assert (report.asks_before, report.asks_after) == (7, 5)


def test_the_cli_prints_toml_and_the_asks_before_and_after(workspace: Path, env: dict[str, str]) -> None:
    _split(workspace, env)

    done = CliRunner().invoke(build_app(), ["learn", "--from-ledger", "--cwd", str(workspace)], env=env)

    assert done.exit_code == 0, done.output
    assert "[[rule]]" in done.stdout
    assert "asks on this evidence:" in done.output


def test_apply_refuses_without_a_terminal_to_ask_on(workspace: Path, env: dict[str, str]) -> None:
    _split(workspace, env)

    done = CliRunner().invoke(
        build_app(), ["learn", "--from-ledger", "--cwd", str(workspace), "--apply"], env=env
    )

    assert done.exit_code == 1
    assert "no terminal to ask on" in done.output
    assert not (Path(env["HOME"]) / ".config" / "bastion" / "policy.toml").exists()


def test_learned_rule_toml_is_a_valid_rule() -> None:
    rule = Learned("shell", "npm test *", 3, ("npm test",), ("npm publish",))

    assert rule.toml() == (
        '[[rule]]\ntool = "shell"\npattern = "npm test *"\naction = "allow"\n'
        'reason = "learned: a person approved 3 such calls"\nmatch = ["npm test"]\n'
        'not_match = ["npm publish"]\n'
    )


def test_learn_from_the_ledger_learns_what_people_approved_in_claudes_own_prompt(
    workspace: Path, env: dict[str, str]
) -> None:
    from bastion.adapters.hooks.decide import LocalDecider, Options
    from bastion.adapters.hooks.entry import protocol_for

    protocol = protocol_for("claude")
    attended = {**env, "CLAUDE_CODE_ENTRYPOINT": "cli"}  # a person at Claude Code's terminal

    def hook(event: str, n: int, command: str) -> str:
        payload = {"session_id": "s1", "cwd": str(workspace), "hook_event_name": event,
                   "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": command},
                   "tool_use_id": f"toolu_{n}"}  # fmt: skip
        request = protocol.parse(payload, attended)
        return LocalDecider().decide(request, protocol, Options(env=attended)).decision

    # `make build` would be allowed contained; the docker daemon is beyond any sandbox: asked.
    for n, command in enumerate(["docker ps", "docker ps", "docker ps", "docker logs web"], 1):
        assert hook("PreToolUse", n, command) == "ask"
        if command == "docker ps":  # approved in Claude's prompt: it ran
            hook("PostToolUse", n, command)
    hook("Stop", 0, "")  # the turn ended: docker logs never ran

    done = CliRunner().invoke(
        build_app(), ["learn", "--from-ledger", "--cwd", str(workspace), "--json"], env=env
    )

    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert [(r["pattern"], r["approvals"], r["not_match"]) for r in report["rules"]] == [
        ("docker ps", 3, ["docker logs web"])
    ]
    assert (report["approved"], report["denied"], report["asks_before"], report["asks_after"]) == (3, 1, 4, 1)
