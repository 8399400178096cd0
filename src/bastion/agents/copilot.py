"""GitHub Copilot CLI (``@github/copilot``): ``preToolUse`` hooks in the repository's
``.github/hooks/*.json`` only; translation in ``bastion.adapters.hooks.copilot``."""

from __future__ import annotations

from bastion.agents.model import (
    Agent,
    AgentHome,
    AskHandling,
    Enforcement,
    Hooks,
    Launch,
    SettingsStyle,
    TrustModel,
)

AGENT = Agent(
    name="copilot",
    title="GitHub Copilot CLI",
    verified="@github/copilot 1.0.102",
    hooks=Hooks(
        folder=".github/hooks",
        file="bastion.json",
        style=SettingsStyle.COPILOT,
        event="preToolUse",
        # ``modifiedArgs`` carries the command rewritten to run inside Bastion's sandbox.
        enforcement=Enforcement(ask=AskHandling.AGENT_PROMPT, rewrite=True),
        project_only="Copilot CLI reads hooks from the repository's .github/hooks only: use --project",
        # Measured with 1.0.102: an untrusted folder's .github/hooks are not loaded at all.
        trust=TrustModel.COPILOT_FOLDERS,
        probe={"toolName": "bash", "toolArgs": '{"command": "rm -rf /"}'},
        env_prefixes=("COPILOT_",),
    ),
    launch=Launch(executables=("copilot",)),
    home=AgentHome(
        "copilot",
        (".copilot",),
        "COPILOT_HOME",
        settings=("config.json", "settings.json", "mcp-config.json", "hooks"),
        model_hosts=(
            "api.githubcopilot.com",
            "api.individual.githubcopilot.com",
            "api.github.com",
            "github.com",
        ),
        env_prefixes=("COPILOT_", "GH_", "GITHUB_"),
    ),
    project_dirs=(".copilot",),
    # Measured with 1.0.102: {"disableAllHooks": true} in .github/copilot/settings.local.json
    # (or settings.json, which may also hold hooks) turns Bastion's hook off.
    project_paths=(".github/hooks", ".github/copilot"),
    permission_globs=("**/.github/hooks", "**/.github/copilot", "**/.copilot"),
)
