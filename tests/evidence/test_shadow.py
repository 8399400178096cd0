"""Shadow mode: every call decided and recorded with its would-be decision, and allowed —
except hardline classes, which stay denied."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app
from bastion.adapters.hooks.entry import hook_env, parse_args
from bastion.approval.clock import FakeClock
from bastion.approval.memory import MemoryStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.call.model import ToolCall
from bastion.configuration import Configuration, load_policy
from bastion.construct import open_gatekeeper
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision
from bastion.policy.engine import Gate
from bastion.runtime import Gatekeeper

SHADOW = 'enforce = false\n[[rule]]\ntool = "shell"\npattern = "git push *"\naction = "deny"\n'


def _keeper(policy: Policy) -> Gatekeeper:
    return Gatekeeper(
        Gate(policy),
        store=MemoryStore(),
        clock=FakeClock(1000.0),
        ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
    )


def _shell(command: str, workspace: Path) -> ToolCall:
    return ToolCall("shell", {"command": command}, cwd=str(workspace), session="s1", interactive=False)


def test_a_denied_call_is_allowed_and_recorded_as_would_deny(
    make_policy: Callable[..., Policy], workspace: Path
) -> None:
    keeper = _keeper(make_policy(SHADOW))

    answer = keeper.request_sync(_shell("git push origin main", workspace))

    assert answer.decision is Decision.ALLOW
    assert answer.to_json()["shadow"] is True
    assert answer.to_json()["would"] == "deny"
    assert [r.rule for r in answer.reasons] == ["shadow.would_deny", "rule[1]"]
    [record] = keeper.ledger.events()
    assert (record.event.decision, record.event.rule) == ("allow", "shadow.would_deny")
    assert record.event.message.startswith("[shadow] would deny:")


def test_a_catastrophic_call_is_still_denied_in_shadow_mode(
    make_policy: Callable[..., Policy], workspace: Path
) -> None:
    keeper = _keeper(make_policy(SHADOW))

    answer = keeper.request_sync(_shell("rm -rf /", workspace))

    assert answer.decision is Decision.DENY
    assert answer.marker == "[policy-denied]"
    assert (answer.to_json()["shadow"], answer.to_json()["would"]) == (True, "deny")
    assert [r.rule for r in answer.reasons] == ["hardline.destructive", "shadow.hardline"]
    [record] = keeper.ledger.events()
    assert (record.event.decision, record.event.rule) == ("deny", "hardline.destructive")
    assert "shadow mode" in record.event.message


def test_every_shadow_record_says_shadow_even_an_allow(
    make_policy: Callable[..., Policy], workspace: Path
) -> None:
    keeper = _keeper(make_policy(SHADOW))

    keeper.request_sync(_shell("git status", workspace))
    keeper.request_sync(_shell("python3 -c 'print(1)'", workspace))

    assert [(r.event.decision, r.event.rule) for r in keeper.ledger.events()] == [
        ("allow", "shadow.would_allow"),
        ("allow", "shadow.would_deny"),
    ]  # nobody to ask: deny


def test_an_enforcing_policy_answers_without_shadow_fields(
    make_policy: Callable[..., Policy], workspace: Path
) -> None:
    keeper = _keeper(make_policy(SHADOW.replace("enforce = false", "enforce = true")))

    answer = keeper.request_sync(_shell("git push origin main", workspace))

    assert answer.decision is Decision.DENY
    assert "shadow" not in answer.to_json()


def test_an_untrusted_project_policy_cannot_turn_enforcement_off(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".bastion").mkdir(parents=True)
    (project / ".bastion" / "policy.toml").write_text("enforce = false\n")

    policy = load_policy(
        cwd=str(project), env={"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    )

    assert policy.enforce is True
    assert any("enforce = false" in w for w in policy.warnings)


def test_the_shadow_flag_of_serve_and_hooks_turns_enforcement_off(tmp_path: Path) -> None:
    env = hook_env(
        parse_args(["claude", "--shadow"]), {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path)}
    )

    policy = load_policy(cwd=str(tmp_path), env=env)

    assert (policy.enforce, policy.enforce_source) == (False, "BASTION_SHADOW=1 (--shadow)")
    assert load_policy(cwd=str(tmp_path), env={"HOME": str(tmp_path)}).enforce is True


def test_logs_would_deny_lists_what_enforcing_would_have_stopped(tmp_path: Path, workspace: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "state")}
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text(SHADOW)
    policy = load_policy(str(policy_file), cwd=str(workspace), env=env)
    with open_gatekeeper(Configuration(policy), env) as keeper:
        for command in ("git status", "git push origin main", "rm -rf /"):
            keeper.request_sync(_shell(command, workspace))

    done = CliRunner().invoke(build_app(), ["logs", "--would-deny", "--json"], env=env)

    assert done.exit_code == 0, done.output
    assert [(r["summary"], r["decision"]) for r in json.loads(done.output)] == [
        ("shell: git push origin main", "allow")
    ]


def test_doctor_says_shadow(tmp_path: Path) -> None:
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text("enforce = false\n")

    done = CliRunner().invoke(
        build_app(),
        ["doctor", "--policy", str(policy_file), "--json"],
        env={"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")},
    )

    checks = {c["name"]: c for c in json.loads(done.output)["checks"]}
    assert checks["shadow mode"]["ok"] is True
    assert f"{policy_file}:1" in checks["shadow mode"]["detail"]


#: A rule that asks, and a mode that asks before every write: what enforcing answers a
#: headless caller (nobody to ask) is a deny, so shadow mode must say *would deny*.
ASKING = {
    "rule": 'enforce = false\n[[rule]]\ntool = "shell"\npattern = "git push *"\naction = "ask"\n',
    "mode": 'enforce = false\nmode = "ask-before-edit"\n',
}
ASKED = {"rule": "git push origin main", "mode": "echo hi > notes.txt"}
CAUSE = {"rule": ["rule[1]"], "mode": ["mode.ask-before-edit"]}


@pytest.mark.parametrize("why", sorted(ASKING))
def test_a_headless_ask_is_recorded_as_the_deny_enforcing_would_have_answered(
    why: str, make_policy: Callable[..., Policy], workspace: Path
) -> None:
    enforcing = _keeper(make_policy(ASKING[why].replace("enforce = false", "enforce = true")))
    shadow = _keeper(make_policy(ASKING[why]))

    enforced = enforcing.request_sync(_shell(ASKED[why], workspace))
    answer = shadow.request_sync(_shell(ASKED[why], workspace))

    assert enforced.decision is Decision.DENY
    assert (answer.decision, answer.to_json()["would"]) == (Decision.ALLOW, "deny")
    assert [r.rule for r in answer.reasons] == [
        "shadow.would_deny",
        *CAUSE[why],
        "approval.non_interactive_default",
    ]
    assert [(r.event.kind, r.event.decision, r.event.rule) for r in shadow.ledger.events()] == [
        ("decided", "allow", "shadow.would_deny")
    ]


@pytest.mark.parametrize("why", sorted(ASKING))
def test_an_attended_ask_is_still_recorded_as_would_ask(
    why: str, make_policy: Callable[..., Policy], workspace: Path
) -> None:
    keeper = _keeper(make_policy(ASKING[why]))
    call = dataclasses.replace(_shell(ASKED[why], workspace), interactive=True)

    answer = keeper.request_sync(call)

    assert (answer.decision, answer.to_json()["would"]) == (Decision.ALLOW, "ask")
    assert [(r.event.kind, r.event.rule) for r in keeper.ledger.events()] == [("decided", "shadow.would_ask")]


def test_logs_would_deny_lists_a_headless_ask_of_the_cli_request(tmp_path: Path, workspace: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "state")}
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text(ASKING["mode"])
    runner = CliRunner()

    asked = runner.invoke(
        build_app(),
        ["request", "--policy", str(policy_file), "--cwd", str(workspace), "--non-interactive", "--json",
         "shell", "echo hi > notes.txt"],
        env=env,
    )  # fmt: skip
    listed = runner.invoke(build_app(), ["logs", "--would-deny", "--json"], env=env)

    assert asked.exit_code == 0, asked.output
    assert json.loads(asked.output)["would"] == "deny"
    assert [(r["summary"], r["decision"], r["rule"]) for r in json.loads(listed.output)] == [
        ("shell: echo hi > notes.txt", "allow", "shadow.would_deny")
    ]


#: (agent, the environment its hook runs in) → what enforcing would answer there.
ENTRY_POINTS = [
    ("claude", {"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}, "deny"),  # claude -p: nobody at the prompt
    ("claude", {"CLAUDE_CODE_ENTRYPOINT": "cli"}, "ask"),  # its terminal: the prompt asks
    ("codex", {}, "deny"),  # Codex honours only deny
    ("qwen", {}, "deny"),  # Qwen Code treats ask as deny
]


@pytest.mark.parametrize(
    ("agent", "extra", "would"), ENTRY_POINTS, ids=["claude -p", "claude terminal", "codex", "qwen"]
)
def test_a_hook_records_what_enforcing_would_have_answered_that_agent(
    agent: str, extra: dict[str, str], would: str, tmp_path: Path, workspace: Path
) -> None:
    from bastion.adapters.hooks.decide import LocalDecider, Options
    from bastion.adapters.hooks.entry import protocol_for

    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "state"), **extra}
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text(ASKING["rule"])
    protocol = protocol_for(agent)
    tool = "run_shell_command" if agent == "qwen" else "Bash"
    payload = {"session_id": "s1", "cwd": str(workspace), "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": {"command": "git push origin main"}}  # fmt: skip

    verdict = LocalDecider().decide(
        protocol.parse(payload, env), protocol, Options(env=env, policy_path=str(policy_file))
    )

    assert (verdict.decision, verdict.evaluation.to_json()["would"]) == ("allow", would)
