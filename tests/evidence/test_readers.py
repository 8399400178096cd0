"""Every record format read back as the calls in it, and replayed the way the hooks decide."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app
from bastion.configuration import load_policy
from bastion.evidence.ledger import args_from_summary
from bastion.evidence.model import Outcome
from bastion.evidence.readers import ReadReport, read_text
from bastion.evidence.replay import decide, gates
from tests.evidence.make_fixtures import FIXTURES, POLICY

#: The transcripts' paths are real: their sandboxes exist (tests/evidence/conftest.py).
pytestmark = pytest.mark.usefixtures("fixed_sandboxes")


def _read(text: str, cwd: str = "/w") -> ReadReport:
    report = ReadReport()
    read_text(text, "f", default_cwd=cwd, report=report)
    return report


def test_a_gemini_chat_log_yields_its_tool_calls_and_the_cancelled_ones_as_denied() -> None:
    doc = {
        "sessionId": "s",
        "projectHash": "h",
        "messages": [
            {"id": "1", "type": "user", "content": "go"},
            {
                "id": "2",
                "type": "gemini",
                "content": "",
                "toolCalls": [
                    {"id": "c1", "name": "run_shell_command", "args": {"command": "ls"}, "status": "success"},
                    {
                        "id": "c2",
                        "name": "write_file",
                        "args": {"file_path": "/w/a", "content": "x"},
                        "status": "cancelled",
                    },
                ],
            },
        ],
    }

    report = _read(json.dumps(doc))

    assert [(c.tool, dict(c.args), c.call_id, c.outcome, c.cwd) for c in report.calls] == [
        ("run_shell_command", {"command": "ls"}, "c1", Outcome.UNKNOWN, "/w"),
        ("write_file", {"file_path": "/w/a", "content": "x"}, "c2", Outcome.DENIED, "/w"),
    ]
    assert report.formats == {"f": "gemini"}


def test_hook_payload_logs_of_claude_and_copilot_shapes_are_read() -> None:
    lines = [
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
            "cwd": "/p",
            "session_id": "s1",
            "tool_use_id": "t1",
        },
        {"toolName": "bash", "toolArgs": json.dumps({"command": "pwd"}), "cwd": "/q"},
    ]

    report = _read("\n".join(json.dumps(x) for x in lines))

    assert [(c.reader, c.tool, dict(c.args), c.cwd, c.call_id) for c in report.calls] == [
        ("hook", "Bash", {"command": "ls"}, "/p", "t1"),
        ("hook", "bash", {"command": "pwd"}, "/q", None),
    ]


def test_bastion_jsonl_and_a_line_that_is_not_json() -> None:
    report = _read('{"tool": "read", "args": {"path": "/etc/hosts"}}\nnot json\n')

    assert [(c.reader, c.tool, dict(c.args)) for c in report.calls] == [
        ("bastion", "read", {"path": "/etc/hosts"})
    ]
    assert report.problems == ["f:2: not JSON; skipped"]


def test_a_ledger_export_rebuilds_calls_from_summaries_and_keeps_the_live_decision() -> None:
    live = json.loads((FIXTURES / "claude-live.json").read_text())

    report = _read(json.dumps(live))

    assert len(report.calls) == len(live) == 33
    assert all(c.approximate and c.reader == "ledger" for c in report.calls)
    assert [c.live for c in report.calls] == [r["decision"] for r in live]


def test_summaries_rebuild_the_deciding_argument_of_each_family() -> None:
    assert args_from_summary("shell", "shell: git push https://***@h") == {
        "command": "git push https://***@h"
    }
    assert args_from_summary("write", "write: /w/a.txt (12 chars)") == {"path": "/w/a.txt", "content": ""}
    assert args_from_summary("fetch", "fetch: POST https://x.example/") == {"url": "https://x.example/"}
    assert args_from_summary("mcp", 'mcp: fs/read {"path": "/w"}') == {
        "server": "fs",
        "tool": "read",
        "arguments": {"path": "/w"},
    }
    assert args_from_summary("code", "code: python: print(1)") is None


def test_an_unknown_tool_is_denied_and_a_patch_is_decided_strictest_first(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    gate_for = gates(lambda cwd: load_policy(str(POLICY), cwd=cwd, env=env))
    patch = "*** Begin Patch\n*** Update File: a.py\n*** Add File: /etc/cron.d/x\n*** End Patch\n"
    report = _read(
        "\n".join(
            json.dumps(x)
            for x in (
                {"tool_name": "Frobnicate", "tool_input": {}, "cwd": str(tmp_path)},
                {"tool_name": "apply_patch", "tool_input": {"input": patch}, "cwd": str(tmp_path)},
                {"tool_name": "TodoWrite", "tool_input": {"todos": []}, "cwd": str(tmp_path)},
            )
        )
    )

    decided = [decide(gate_for, c) for c in report.calls]

    assert [(d.decision.label, d.evaluation.reasons[0].rule) for d in decided] == [
        ("deny", "call.invalid"),
        ("deny", "hardline.system"),
        ("allow", "tool.inert"),
    ]
    assert [c.tool for c in decided[1].calls] == ["edit", "write"]


def test_replay_prints_one_json_object_per_call_with_its_decision() -> None:
    env = {"HOME": "/var/tmp/bastion-evidence-claude/home"}
    done = CliRunner().invoke(
        build_app(),
        [
            "replay",
            str(FIXTURES / "claude-session.jsonl"),
            "--policy",
            str(POLICY),
            "--non-interactive",
            "--json",
        ],
        env=env,
    )

    assert done.exit_code == 0, done.output
    results = json.loads(done.output)
    assert len(results) == 33
    assert {r["decision"] for r in results} == {"allow", "deny"}
    assert results[0]["tool"] == "Bash" and results[0]["calls"][0]["tool"] == "shell"


def test_replay_prints_a_table_per_decision_class() -> None:
    env = {"HOME": "/var/tmp/bastion-evidence-codex/home"}
    live = json.loads((FIXTURES / "codex-live.json").read_text())
    denied = sum(1 for r in live if r["decision"] == "deny")
    done = CliRunner().invoke(
        build_app(),
        ["replay", str(FIXTURES / "codex-rollout.jsonl"), "--policy", str(POLICY), "--non-interactive"],
        env=env,
    )

    assert done.exit_code == 0, done.output
    assert done.output.index(f"deny: {denied} calls") < done.output.index(
        f"allow: {len(live) - denied} calls"
    )
    assert "31 calls from" in done.output
