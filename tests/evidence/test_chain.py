"""``explain`` lists every rule and list entry that matched, in order, with file:line, and
which one the decision came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app

POLICY = """[commands]
allow = ["git push *"]

[[rule]]
tool = "shell"
pattern = "git *"
action = "ask"

[[rule]]
tool = "shell"
pattern = "git push *"
action = "deny"
reason = "no pushes"
"""


def _explain(tmp_path: Path, *args: str) -> dict[str, Any]:
    return _explain_with(tmp_path, POLICY, *args)


def test_every_matching_entry_is_listed_in_order_and_the_last_rule_overrides_the_others(
    tmp_path: Path,
) -> None:
    result = _explain(tmp_path, "shell", "git push origin main")
    where = str(tmp_path / "policy.toml")

    assert result["decision"] == "deny"
    assert result["chain"] == [
        {
            "stage": "commands.allow",
            "entry": "git push *",
            "action": "allow",
            "source": f"{where}:2",
            "subject": "git push origin main",
            "overridden_by": f"{where}:9",
        },
        {
            "stage": "rule[1]",
            "entry": "git *",
            "action": "ask",
            "source": f"{where}:4",
            "subject": "git push origin main",
            "overridden_by": f"{where}:9",
        },
        {
            "stage": "rule[2]",
            "entry": "git push *",
            "action": "deny",
            "source": f"{where}:9",
            "subject": "git push origin main",
            "deciding": True,
        },
    ]


def test_a_hardline_decision_overrides_every_entry(tmp_path: Path) -> None:
    result = _explain(tmp_path, "shell", "git status; rm -rf ~")

    assert result["reasons"][0]["rule"] == "hardline.destructive"
    assert {link.get("overridden_by") for link in result["chain"]} == {"hardline.destructive @ built-in"}


def test_a_call_nothing_matched_has_an_empty_chain(tmp_path: Path) -> None:
    assert _explain(tmp_path, "shell", "ls")["chain"] == []


def _explain_with(tmp_path: Path, text: str, *args: str) -> dict[str, Any]:
    policy = tmp_path / "policy.toml"
    policy.write_text(text)
    done = CliRunner().invoke(
        build_app(),
        ["explain", *args, "--policy", str(policy), "--json"],
        env={"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")},
    )
    assert done.exit_code in (0, 3, 4), done.output
    return dict(json.loads(done.output))


def test_a_deny_read_entry_is_listed_from_the_checks_the_gate_runs(tmp_path: Path) -> None:
    text = '[paths]\ndeny_read = ["**/*.secret"]\n'
    target = str(tmp_path / "notes" / "a.secret")
    result = _explain_with(tmp_path, text, "read", target)
    where = str(tmp_path / "policy.toml")

    assert result["decision"] == "deny"
    assert [(link["stage"], link["entry"], link["action"], link["source"]) for link in result["chain"]] == [
        ("paths.deny_read", "**/*.secret", "deny", f"{where}:2"),
    ]


def test_a_deny_write_entry_is_listed_for_a_write_and_not_for_a_read(tmp_path: Path) -> None:
    text = '[paths]\ndeny_write = ["**/*.lock"]\n'
    target = str(tmp_path / "Cargo.lock")
    written = _explain_with(tmp_path, text, "write", target)
    read = _explain_with(tmp_path, text, "read", target)

    assert [(link["stage"], link["entry"]) for link in written["chain"]] == [
        ("paths.deny_write", "**/*.lock")
    ]
    assert read["chain"] == []
