"""The README's table of agents is the registry's: one row per record, in its words."""

from __future__ import annotations

from pathlib import Path

from bastion.agents.model import Agent, TrustModel
from bastion.agents.registry import AGENTS

README = Path(__file__).resolve().parents[2] / "README.md"

#: How the README names each trust gate.
TRUST_WORDS = {
    TrustModel.NONE: "none",
    TrustModel.CODEX_PROJECTS: "project trust (`config.toml`)",
    TrustModel.GEMINI_FOLDERS: "folder trust, on by default",
    TrustModel.QWEN_FOLDERS: "folder trust, off by default",
    TrustModel.COPILOT_FOLDERS: "folder trust (`trustedFolders`)",
}


def row(agent: Agent) -> str:
    """The README row of one record."""
    launch = f"`bastion launch {agent.name}`"
    if agent.hooks is None:
        return f"| {agent.title} | `{agent.name}` | {agent.verified} | no hook | — | — | {launch} |"
    hooks = agent.hooks
    where = f"`{hooks.folder}/{hooks.file}`" + (" (project)" if hooks.project_only else "")
    answers = hooks.enforcement.words()
    trust = TRUST_WORDS[hooks.trust]
    return f"| {agent.title} | `{agent.name}` | {agent.verified} | {where} | {answers} | {trust} | {launch} |"


def test_the_readme_has_one_row_per_registry_agent_in_its_words() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(
        "| agent | name | checked with | hook settings | hook answers | trust gate | contained |"
    )
    table = lines[start + 2 : start + 2 + len(AGENTS)]

    assert table == [row(agent) for agent in AGENTS]
    assert not lines[start + 2 + len(AGENTS)].startswith("|")  # no row for an agent that is gone
