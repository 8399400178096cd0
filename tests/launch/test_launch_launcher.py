"""Fake agent executables prove what ``launch`` and ``resume`` pass and never raise."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bastion.launch.launcher import NOT_STARTED, LaunchRefused, Ports, launch, resume, survey
from bastion.launch.sessions import JsonSessionStore
from bastion.policy.ceiling import NO_CEILING, Ceiling

READ_ONLY = Ceiling("ask_every_action", "read_only", "allowed")
STRICT = Ceiling("ask_every_action", "read_only", "denied")


class Harness:
    def __init__(self, fake_agents: Any, tmp_path: Path) -> None:
        self.agents = fake_agents
        self.store = JsonSessionStore(str(tmp_path / "state"))
        self.events: list[dict[str, Any]] = []
        self.stderr = io.StringIO()
        self.ports = Ports(path=str(fake_agents.bin), stderr=self.stderr, on_event=self.events.append)
        self.cwd = str(tmp_path)

    def launch(self, names: list[str], ceiling: Ceiling, args: list[str] | None = None, **kw: Any) -> Any:
        return launch(
            names, ceiling, "test", args or [], store=self.store, ports=self.ports, cwd=self.cwd, **kw
        )

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]


@pytest.fixture
def h(fake_agents: Any, tmp_path: Path) -> Harness:
    return Harness(fake_agents, tmp_path)


def test_launch_passes_exactly_the_mapped_flags_before_the_agent_args(h: Harness) -> None:
    h.agents.add("claude")
    outcome = h.launch(["claude"], READ_ONLY, ["hello"])
    assert h.agents.calls("claude") == [["--permission-mode", "plan", "hello"]]
    assert outcome.exit_code == 0
    assert h.types() == ["launch.session_created", "launch.agent_started", "launch.agent_exited"]


def test_flags_go_after_the_subcommand_whose_help_was_read(h: Harness) -> None:
    h.agents.add("codex")
    h.launch(["codex"], Ceiling("never_ask", "workspace_write", "allowed"), ["exec", "fix"])
    assert h.agents.calls("codex") == [["exec", "--sandbox", "workspace-write", "fix"]]


def test_an_agent_with_no_mode_inside_the_ceiling_is_not_started(h: Harness) -> None:
    h.agents.add("opencode")
    outcome = h.launch(["opencode"], READ_ONLY)
    assert (h.agents.calls("opencode"), outcome.exit_code) == ([], NOT_STARTED)
    run = outcome.session.runs[0]
    assert (run.started, run.flags, run.ceiling) == (False, (), READ_ONLY)
    assert "cannot enforce filesystem=read_only" in h.stderr.getvalue()


def test_failover_tries_the_next_agent_under_the_same_ceiling(h: Harness) -> None:
    h.agents.add("opencode")
    h.agents.add("claude", exit_code=1)
    h.agents.add("qwen")
    outcome = h.launch(["opencode", "claude", "qwen"], READ_ONLY)
    assert h.agents.calls("claude") == [["--permission-mode", "plan"]]
    assert h.agents.calls("qwen") == [["--approval-mode", "plan"]]
    assert [(r.agent, r.started, r.exit_code, r.ceiling) for r in outcome.session.runs] == [
        ("opencode", False, None, READ_ONLY),
        ("claude", True, 1, READ_ONLY),
        ("qwen", True, 0, READ_ONLY),
    ]
    assert h.store.load(outcome.session.id) == outcome.session


def test_failover_applies_a_stricter_configuration_and_ignores_a_looser_one(h: Harness) -> None:
    h.agents.add("claude", exit_code=1)
    h.agents.add("gemini", exit_code=1)
    h.agents.add("qwen")
    answers = iter([READ_ONLY, NO_CEILING])
    outcome = h.launch(["claude", "gemini", "qwen"], NO_CEILING, refresh=lambda: next(answers))
    assert [r.ceiling for r in outcome.session.runs] == [NO_CEILING, READ_ONLY, READ_ONLY]
    assert h.agents.calls("qwen") == [["--approval-mode", "plan"]]
    assert outcome.session.ceiling == READ_ONLY


def test_bypass_gives_the_skip_every_check_flag_and_a_banner_before_and_after(h: Harness) -> None:
    h.agents.add("claude")
    outcome = h.launch(["claude"], STRICT, bypass=True)
    assert h.agents.calls("claude") == [["--dangerously-skip-permissions"]]
    assert h.stderr.getvalue().count("PERMISSIONS BYPASSED") == 2
    assert (outcome.session.bypassed, outcome.session.ceiling_source) == (True, "--bypass-permissions")
    assert "launch.bypass" in h.types()


def test_bypass_is_refused_for_agent_args_that_start_nothing(h: Harness) -> None:
    h.agents.add("claude")
    with pytest.raises(LaunchRefused, match="starts nothing"):
        h.launch(["claude"], NO_CEILING, ["--version"], bypass=True)
    assert h.agents.calls("claude") == []


def test_resume_refuses_a_looser_ceiling_than_the_saved_one(h: Harness) -> None:
    h.agents.add("claude")
    first = h.launch(["claude"], READ_ONLY)
    with pytest.raises(LaunchRefused, match="saved ceiling ask_every_action,read_only,allowed"):
        resume(first.session.id, READ_ONLY, "test", store=h.store, ports=h.ports, requested=NO_CEILING)
    with pytest.raises(LaunchRefused, match="--bypass-permissions refused"):
        resume(first.session.id, READ_ONLY, "test", store=h.store, ports=h.ports, bypass=True)
    assert h.agents.calls("claude") == [["--permission-mode", "plan"]]
    assert h.types()[-1] == "launch.resume_refused"


def test_resume_keeps_the_saved_ceiling_when_the_configuration_became_looser(h: Harness) -> None:
    h.agents.add("claude")
    first = h.launch(["claude"], READ_ONLY)
    again = resume(first.session.id, NO_CEILING, "config", store=h.store, ports=h.ports)
    assert h.agents.calls("claude") == [["--permission-mode", "plan"]] * 2
    assert again.session.ceiling == READ_ONLY


def test_resume_applies_and_saves_a_stricter_configuration(h: Harness) -> None:
    h.agents.add("claude")
    first = h.launch(["claude"], NO_CEILING)
    resume(first.session.id, READ_ONLY, "config", store=h.store, ports=h.ports)
    assert h.agents.calls("claude") == [["--permission-mode", "acceptEdits"], ["--permission-mode", "plan"]]
    saved = h.store.load(first.session.id)
    assert (saved.ceiling, saved.ceiling_source, len(saved.runs)) == (READ_ONLY, "config", 2)


def test_a_bypass_session_may_be_resumed_with_bypass(h: Harness) -> None:
    h.agents.add("gemini")
    first = h.launch(["gemini"], STRICT, bypass=True)
    resume(first.session.id, STRICT, "config", store=h.store, ports=h.ports, bypass=True)
    assert h.agents.calls("gemini") == [["--yolo"], ["--yolo"]]


def test_an_agent_missing_from_path_is_reported_not_started(h: Harness) -> None:
    report = survey("claude", NO_CEILING, (), h.ports)
    assert report.as_json() == {
        "agent": "claude",
        "path": None,
        "version": None,
        "started": False,
        "flags": [],
        "notes": ["not started: claude not found on PATH"],
        "assumptions": [],
    }


def test_an_unknown_agent_is_surveyed_by_its_own_name(h: Harness) -> None:
    h.agents.add("myagent", like="gemini")
    report = survey("myagent", NO_CEILING, (), h.ports)
    assert (report.version, report.mapping.flags) == ("0.61.0", ("--approval-mode", "auto_edit"))
