"""``policy diff``: two policies that differ by one rule show exactly the calls that rule changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app
from bastion.configuration import load_configuration, load_policy
from bastion.evidence.diff import diff, grouped
from bastion.evidence.readers import read_files
from bastion.evidence.replay import gates
from tests.evidence.make_fixtures import FIXTURES, POLICY

#: The transcripts' paths are real: their sandboxes exist (tests/evidence/conftest.py).
pytestmark = pytest.mark.usefixtures("fixed_sandboxes")

SESSION = FIXTURES / "claude-session.jsonl"
HOME = "/var/tmp/bastion-evidence-claude/home"
#: Workspace code (`python3 -c …`) is allowed contained, as the hooks decide it: a host is
#: what a person is asked about, and what a rule changes.
EXTRA_RULE = '\n[[rule]]\ntool = "fetch"\npattern = "example.com"\naction = "allow"\n'
FETCH_RULE = '\n[[rule]]\ntool = "fetch"\npattern = "pypi.org"\naction = "ask"\n'


def _with(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "b.toml"
    path.write_text(POLICY.read_text() + extra)
    return path


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": HOME, "BASTION_STATE_DIR": str(tmp_path / "state")}


def test_one_added_rule_changes_exactly_the_calls_it_matches(tmp_path: Path) -> None:
    b = _with(tmp_path, EXTRA_RULE)
    env = _env(tmp_path)
    calls = read_files([str(SESSION)], default_cwd="/").calls

    changes = diff(
        gates(lambda cwd: load_policy(str(POLICY), cwd=cwd, env=env)),
        gates(lambda cwd: load_policy(str(b), cwd=cwd, env=env)),
        calls,
    )

    assert [(c.before.proposed.label, c.kind) for c in changes] == [
        ("WebFetch https://example.com/", "ask→allow")
    ]
    assert changes[0].to_json()["after_reasons"][0]["rule"] == "rule[3]"
    assert changes[0].to_json()["before_reasons"][0]["rule"] == "network.unlisted"  # the specific cause


def test_the_cli_prints_one_json_object_per_changed_call_and_exits_1(tmp_path: Path) -> None:
    b = _with(tmp_path, FETCH_RULE)

    done = CliRunner().invoke(
        build_app(),
        ["policy", "diff", str(POLICY), str(b), "--corpus", str(SESSION), "--json"],
        env=_env(tmp_path),
    )

    assert done.exit_code == 1, done.output
    [change] = json.loads(done.output)
    assert (change["call"], change["change"], change["before"], change["after"]) == (
        "WebFetch https://pypi.org/simple/",
        "allow→ask",
        "allow",
        "ask",
    )
    assert change["before_reasons"][0]["rule"] == "network.allow_hosts"
    assert change["after_reasons"][0]["rule"] == "rule[3]"


def test_identical_policies_change_nothing_and_exit_0(tmp_path: Path) -> None:
    done = CliRunner().invoke(
        build_app(),
        ["policy", "diff", str(POLICY), str(POLICY), "--corpus", str(SESSION)],
        env=_env(tmp_path),
    )

    assert done.exit_code == 0, done.output
    assert "0 of 33 calls change" in done.output


def test_changes_are_grouped_loosening_first(tmp_path: Path) -> None:
    b = _with(tmp_path, EXTRA_RULE + FETCH_RULE)
    env = _env(tmp_path)
    calls = read_files([str(SESSION)], default_cwd="/").calls

    changes = diff(
        gates(lambda cwd: load_policy(str(POLICY), cwd=cwd, env=env)),
        gates(lambda cwd: load_policy(str(b), cwd=cwd, env=env)),
        calls,
    )

    assert list(grouped(changes)) == ["ask→allow", "allow→ask"]


def test_without_a_corpus_the_ledgers_calls_are_compared(tmp_path: Path, workspace: Path) -> None:
    from bastion.call.model import ToolCall
    from bastion.construct import open_gatekeeper

    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    a = tmp_path / "a.toml"
    a.write_text("")
    b = tmp_path / "b.toml"
    b.write_text(EXTRA_RULE)
    with open_gatekeeper(load_configuration(str(a), cwd=str(workspace), env=env), env) as keeper:
        for tool, args in (("fetch", {"url": "https://example.com/1"}), ("shell", {"command": "ls"}),
                           ("fetch", {"url": "https://example.com/2"})):  # fmt: skip
            keeper.request_sync(ToolCall(tool, args, cwd=str(workspace)))

    done = CliRunner().invoke(
        build_app(), ["policy", "diff", str(a), str(b), "--cwd", str(workspace), "--json"], env=env
    )

    assert done.exit_code == 1, done.output
    assert [(c["call"], c["change"], c["approximate"]) for c in json.loads(done.output)] == [
        ("fetch https://example.com/1", "ask→allow", True),
        ("fetch https://example.com/2", "ask→allow", True),
    ]
