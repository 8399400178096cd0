"""Replaying what the real agents wrote reaches the decisions Bastion's hooks made live.

The checked-in sessions (made by tests/evidence/make_fixtures.py: 33 Claude Code calls —
shell, reads, edits, writes, web fetches, MCP tools — and 31 Codex calls) replay without
the CLIs; the live tests run the same scripts through the real CLIs each time.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from bastion.configuration import load_policy
from bastion.evidence.readers import read_files
from bastion.evidence.replay import Replayed, gates, replay
from tests.adapters.hooks.conftest import agent_cli
from tests.evidence.make_fixtures import FIXTURES, POLICY, make

#: The transcripts' paths are real: their sandboxes exist (tests/evidence/conftest.py).
pytestmark = pytest.mark.usefixtures("fixed_sandboxes")


def _replay(transcript: Path, home: str, state: Path) -> list[Replayed]:
    env = {"HOME": home, "BASTION_STATE_DIR": str(state)}
    report = read_files([str(transcript)], default_cwd="/")
    assert report.problems == []
    return list(
        replay(gates(lambda cwd: load_policy(str(POLICY), cwd=cwd, env=env)), report.calls, interactive=False)
    )


def _live(records: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """tool_use_id → (decision, deciding rule) as the hook recorded it."""
    return {r["agent"].split("/", 1)[1]: (r["decision"], r["rule"]) for r in records}


def _replayed(results: list[Replayed]) -> dict[str, tuple[str, str]]:
    return {str(r.proposed.call_id): (r.decision.label, r.evaluation.reasons[0].rule) for r in results}


@pytest.mark.parametrize(
    ("agent", "name"), [("claude", "claude-session.jsonl"), ("codex", "codex-rollout.jsonl")]
)
def test_the_checked_in_session_replays_to_the_decisions_the_hooks_made_live(
    agent: str, name: str, tmp_path: Path
) -> None:
    live = json.loads((FIXTURES / f"{agent}-live.json").read_text())

    results = _replay(FIXTURES / name, f"/var/tmp/bastion-evidence-{agent}/home", tmp_path)

    assert len(results) >= 30
    assert _replayed(results) == _live(live)
    assert {r.decision.label for r in results} == {"allow", "deny"}


def test_the_checked_in_claude_session_covers_reads_edits_shell_web_fetch_and_mcp(tmp_path: Path) -> None:
    results = _replay(FIXTURES / "claude-session.jsonl", "/var/tmp/bastion-evidence-claude/home", tmp_path)

    assert {r.calls[0].tool for r in results} == {"shell", "read", "edit", "write", "fetch", "mcp"}


#: Rules only a look-up of the host decides (the address it resolves to).
RESOLUTION_RULES = frozenset({"network.private", "network.resolve"})


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_live_session_of_the_real_cli_replays_to_the_decisions_its_hooks_made(agent: str) -> None:
    agent_cli(agent)
    root = Path(f"/var/tmp/bastion-evidence-test-{uuid.uuid4().hex[:10]}")
    try:
        transcript, ledger, session = make(agent, root)
        results = _replay(transcript, str(root / "home"), root / "replay-state")
        # The decisions; a contained run's exit is its own later record (``executed``).
        live = [r for r in ledger if r["kind"] in ("decided", "requested")]
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)

    assert session.asked >= 30
    assert len(live) == session.asked
    replayed, hooks = _replayed(results), _live(live)
    # The hooks resolve host names (one gate for every entry point); replay decides offline
    # (its named option): a decision that came from the resolution is not replayable.
    resolved = {k for k, (_, rule) in hooks.items() if rule in RESOLUTION_RULES}
    assert {k: v for k, v in replayed.items() if k not in resolved} == {
        k: v for k, v in hooks.items() if k not in resolved
    }
