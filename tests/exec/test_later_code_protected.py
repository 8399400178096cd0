"""The later-code table is one source: the gate asks about a direct write to each entry and
every sandbox keeps each contained one read-only where it exists and sweeps it where a run
creates it at the top of a writable root (policy/later_code.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.exec.protected import ROOT_SWEPT, plan_protection
from bastion.policy.hardline import AGENT_PERMISSION_GLOBS, Hardline
from bastion.policy.later_code import LATER_CODE, LATER_CODE_GLOBS, LaterCode


def _where(entry: LaterCode) -> str:
    """A workspace path of the entry, one folder down (it is guarded at any depth)."""
    return "pkg/" + (f"app{entry.suffix}" if entry.suffix else entry.path)


def _plan(root: Path) -> tuple[set[str], set[str]]:
    plan = plan_protection([str(root)], [], is_credential=lambda p: False, skip=(), max_entries=100_000)
    return (
        {str(Path(p).relative_to(root)) for p in plan.readonly},
        {str(Path(p).relative_to(root)) for p in plan.swept},
    )


def test_the_gate_reads_every_glob_of_the_table_and_no_other_list_repeats_one() -> None:
    hard = Hardline.build(home="/home/u", credentials_dir="/home/u/.creds", policy_files=(), state_dir="/s")

    assert [g.pattern for g in hard.later_code.globs] == list(LATER_CODE_GLOBS)
    assert set(LATER_CODE_GLOBS).isdisjoint(AGENT_PERMISSION_GLOBS)
    assert len(LATER_CODE_GLOBS) == len(set(LATER_CODE_GLOBS))


@pytest.mark.parametrize("entry", LATER_CODE, ids=lambda e: e.path)
def test_a_direct_write_to_each_entry_asks(
    entry: LaterCode, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    gate = make_gate()
    decisions = {
        rel: gate.evaluate(call("write", path=rel, content="x")).decision
        for rel in (_where(entry), f"{_where(entry)}/x")
    }

    assert set(decisions.values()) == {Decision.ASK}


def test_every_contained_entry_that_exists_is_read_only_in_the_sandbox(workspace: Path) -> None:
    contained = [_where(e) for e in LATER_CODE if e.contained]
    for rel in contained:
        (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
        (workspace / rel).write_text("x\n")

    readonly, _ = _plan(workspace)

    assert sorted(rel for rel in contained if rel not in readonly) == []


def test_every_contained_entry_created_at_the_top_of_a_root_is_swept(workspace: Path) -> None:
    _, swept = _plan(workspace)

    expected = {e.path for e in LATER_CODE if e.contained and not e.suffix}
    assert sorted(expected - swept) == []
    assert expected <= set(ROOT_SWEPT)


def test_what_an_install_writes_stays_writable_in_the_sandbox_but_asks_at_the_gate(
    workspace: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    (workspace / "node_modules" / ".bin").mkdir(parents=True)
    (workspace / "node_modules" / ".bin" / "eslint").write_text("#!/bin/sh\n")
    (workspace / ".venv" / "bin").mkdir(parents=True)
    (workspace / ".venv" / "bin" / "activate").write_text("# venv\n")

    readonly, _ = _plan(workspace)
    gate = make_gate()
    decisions = {
        rel: gate.evaluate(call("write", path=rel, content="x")).decision
        for rel in ("node_modules/.bin/eslint", ".venv/bin/activate")
    }

    assert readonly == set()
    assert decisions == {"node_modules/.bin/eslint": Decision.ASK, ".venv/bin/activate": Decision.ASK}


def test_the_programs_config_names_are_read_only_in_the_sandbox_and_swept_when_missing(
    workspace: Path,
) -> None:
    repo = workspace / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    subprocess.run(
        ["git", "-C", str(repo), "config", "core.fsmonitor", "./.fsm.sh"], check=True, capture_output=True
    )
    subprocess.run(
        ["git", "-C", str(repo), "config", "alias.lg", "!sh -c './tools/lg.sh'"],
        check=True,
        capture_output=True,
    )
    (repo / ".fsm.sh").write_text("#!/bin/sh\n")
    (workspace / "rust" / ".tc" / "bin").mkdir(parents=True)
    (workspace / "rust" / "rust-toolchain.toml").write_text(f'[toolchain]\npath = "{workspace}/rust/.tc"\n')
    (workspace / "crate" / ".cargo").mkdir(parents=True)
    (workspace / "crate" / ".cargo" / "config.toml").write_text('[build]\nrustc-wrapper = ".cargo/wrap.sh"\n')
    (workspace / "crate" / ".cargo" / "wrap.sh").write_text('exec "$@"\n')
    (workspace / ".npmrc").write_text(f"script-shell={workspace}/tools/npm-shell.sh\n")
    (workspace / "tools").mkdir()
    (workspace / "tools" / "npm-shell.sh").write_text('exec /bin/sh "$@"\n')

    plan = plan_protection(
        [str(workspace)], [], is_credential=lambda p: p.endswith("/.npmrc"), skip=(), max_entries=100_000
    )
    readonly = {str(Path(p).relative_to(workspace)) for p in plan.readonly}
    swept = {str(Path(p).relative_to(workspace)) for p in plan.swept}

    assert {"repo/.fsm.sh", "rust/.tc", "crate/.cargo/wrap.sh", "tools/npm-shell.sh"} <= readonly
    assert "repo/tools/lg.sh" in swept
    assert "src" not in readonly
