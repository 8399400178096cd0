"""Every ceiling combination (3 × 3 × 2) against every captured help text: the flags chosen."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bastion.launch.agents import KNOWN
from bastion.launch.helptext import HelpText
from bastion.launch.mapping import map_ceiling
from bastion.launch.validate import check
from bastion.policy.ceiling import Ceiling

CEILINGS = [
    Ceiling(a, f, n)
    for a, f, n in itertools.product(
        ("ask_every_action", "ask_for_risky", "never_ask"),
        ("read_only", "workspace_write", "unrestricted"),
        ("denied", "allowed"),
    )
]

NO = None  # not started
SANDBOX = "--settings " + KNOWN["claude"].overrides[0].value
NET_OFF = "--config sandbox_workspace_write.network_access=false"
PLAN = "--permission-mode plan"

# One row per approval; within a row: (read_only, workspace_write, unrestricted) × (denied, allowed).
EXPECTED: dict[tuple[str, str], list[str | None]] = {
    ("claude", "main"): [
        f"{PLAN} {SANDBOX}",
        PLAN,
        f"{PLAN} {SANDBOX}",
        PLAN,
        f"--permission-mode default {SANDBOX}",
        "--permission-mode default",
        f"{PLAN} {SANDBOX}",
        PLAN,
        f"{PLAN} {SANDBOX}",
        PLAN,
        f"--permission-mode acceptEdits {SANDBOX}",
        "--permission-mode acceptEdits",
        f"{PLAN} {SANDBOX}",
        PLAN,
        f"{PLAN} {SANDBOX}",
        PLAN,
        f"--permission-mode acceptEdits {SANDBOX}",
        "--dangerously-skip-permissions",
    ],
    ("codex", "main"): [
        NO,
        "--sandbox read-only",
        f"--sandbox workspace-write {NET_OFF}",
        "--sandbox workspace-write",
        f"--sandbox workspace-write {NET_OFF}",
        "",
        NO,
        "--sandbox read-only",
        f"--sandbox workspace-write {NET_OFF}",
        "--sandbox workspace-write",
        f"--sandbox workspace-write {NET_OFF}",
        "",
        NO,
        "--sandbox read-only --ask-for-approval never",
        f"--sandbox workspace-write --ask-for-approval never {NET_OFF}",
        "--sandbox workspace-write --ask-for-approval never",
        f"--sandbox workspace-write --ask-for-approval never {NET_OFF}",
        "--dangerously-bypass-approvals-and-sandbox",
    ],
    ("codex", "exec"): [
        *[NO] * 12,
        NO,
        "--sandbox read-only",
        f"--sandbox workspace-write {NET_OFF}",
        "--sandbox workspace-write",
        f"--sandbox workspace-write {NET_OFF}",
        "--dangerously-bypass-approvals-and-sandbox",
    ],
    # Gemini's plan mode is left out: Gemini turns it into default mode in an untrusted folder.
    ("gemini", "main"): [
        NO,
        NO,
        NO,
        NO,
        NO,
        "--approval-mode default",
        NO,
        NO,
        NO,
        NO,
        NO,
        "--approval-mode auto_edit",
        NO,
        NO,
        NO,
        NO,
        NO,
        "--yolo",
    ],
    ("qwen", "main"): [
        NO,
        "--approval-mode plan",
        NO,
        "--approval-mode plan",
        NO,
        "--approval-mode default",
        NO,
        "--approval-mode plan",
        NO,
        "--approval-mode plan",
        NO,
        "--approval-mode auto-edit",
        NO,
        "--approval-mode plan",
        NO,
        "--approval-mode plan",
        NO,
        "--yolo",
    ],
    ("copilot", "main"): [
        NO,
        "--mode plan",
        NO,
        "--mode plan",
        NO,
        "",
        NO,
        "--mode plan",
        NO,
        "--mode plan",
        NO,
        "",
        NO,
        "--mode plan",
        NO,
        "--mode plan",
        NO,
        "--allow-all",
    ],
    ("opencode", "main"): [NO, NO, NO, NO, NO, "", NO, NO, NO, NO, NO, "", NO, NO, NO, NO, NO, "--auto"],
    ("opencode", "run"): [NO, NO, NO, NO, NO, "", NO, NO, NO, NO, NO, "", NO, NO, NO, NO, NO, "--auto"],
    ("pi", "main"): [
        NO,
        "--tools read,grep,find,ls",
        NO,
        "--tools read,grep,find,ls",
        NO,
        "",
        NO,
        "--tools read,grep,find,ls",
        NO,
        "--tools read,grep,find,ls",
        NO,
        "",
        NO,
        "--tools read,grep,find,ls",
        NO,
        "--tools read,grep,find,ls",
        NO,
        "",
    ],
}


HelpOf = Callable[..., HelpText]


def _flags(help_text: HelpText, agent: str) -> list[str | None]:
    out: list[str | None] = []
    for ceiling in CEILINGS:
        mapping = map_ceiling(KNOWN[agent], help_text, ceiling)
        out.append(" ".join(mapping.flags) if mapping.started else None)
    return out


@pytest.mark.parametrize(("agent", "sub"), sorted(EXPECTED))
def test_each_agent_gets_the_most_permissive_listed_flags_inside_each_ceiling(
    agent: str, sub: str, help_of: HelpOf
) -> None:
    assert _flags(help_of(agent, sub), agent) == EXPECTED[(agent, sub)]


@pytest.mark.parametrize(("agent", "sub"), sorted(EXPECTED))
def test_every_started_mapping_passes_the_validator_and_every_refusal_says_why(
    agent: str, sub: str, help_of: HelpOf
) -> None:
    help_text = help_of(agent, sub)
    for ceiling in CEILINGS:
        mapping = map_ceiling(KNOWN[agent], help_text, ceiling)
        if mapping.started:
            assert mapping.effective is not None
            assert check(mapping.effective, ceiling).ok
        else:
            assert mapping.notes[0] == f"not started: no mode fits inside the ceiling {ceiling.text()}"
            assert any(n.startswith(("cannot enforce", "its flags fit")) for n in mapping.notes)


def test_no_mapping_ever_passes_an_allow_list_flag(help_of: HelpOf) -> None:
    allow_lists = {"--allowedTools", "--allowed-tools", "--allow-tool", "--allow-url", "--policy"}
    for (agent, sub), _ in EXPECTED.items():
        for ceiling in CEILINGS:
            mapping = map_ceiling(KNOWN[agent], help_of(agent, sub), ceiling)
            assert not allow_lists & set(mapping.flags)
