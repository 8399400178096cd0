"""Codex (``@openai/codex``): ``PreToolUse`` hooks in ``.codex/hooks.json``, read only in a
trusted project; translation in ``bastion.adapters.hooks.codex``."""

from __future__ import annotations

from bastion.agents.model import (
    Agent,
    AgentHome,
    AskHandling,
    Enforcement,
    Hooks,
    Launch,
    Override,
    SettingsStyle,
    TrustModel,
)

TRUST_NOTE = (
    "Codex skips hooks nobody has trusted, silently. Start `codex` in this project, type "
    "/hooks, and trust the `bastion hook codex` entry (Codex records the trust by the hook's "
    "hash; re-trust after `bastion install codex` changes it). Automation you control may "
    "instead pass --dangerously-bypass-hook-trust. `bastion doctor` cannot see Codex's "
    "trust store: it proves the hook answers, not that Codex runs it."
)

#: Measured with Codex 0.171.0: its own sandbox (read-only or workspace-write) forbids the
#: namespaces bubblewrap needs, so a rewritten call fails there (exit 126, "bubblewrap cannot
#: create a sandbox here") instead of running; the hook input does not say which sandbox runs.
NESTING_NOTE = (
    "Bastion rewrites each shell call Codex is allowed to run into its own sandbox, and "
    "Codex's sandbox cannot host it (nested bubblewrap is refused): start Codex with "
    "--sandbox danger-full-access so Bastion's sandbox replaces Codex's, or set "
    '[exec] contain = "off" to keep Codex\'s sandbox alone.'
)

AGENT = Agent(
    name="codex",
    title="Codex",
    verified="@openai/codex 0.171.0",
    hooks=Hooks(
        folder=".codex",
        file="hooks.json",
        style=SettingsStyle.CLAUDE,
        event="PreToolUse",
        # Codex's output parser rejects "ask": Bastion answers deny (tests/adapters/hooks).
        enforcement=Enforcement(ask=AskHandling.IGNORED, rewrite=True),
        user_folder_env="CODEX_HOME",
        trust=TrustModel.CODEX_PROJECTS,
        install_notes=(TRUST_NOTE, NESTING_NOTE),
        doctor_caveat="Codex runs it only once the hook itself is trusted (/hooks)",
        probe={"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}},
        env_prefixes=("CODEX_",),
    ),
    launch=Launch(
        executables=("codex",),
        aliases=(("e", "exec"),),
        overrides=(
            Override(
                "--config",
                ("override", "configuration"),
                "sandbox_workspace_write.network_access=false",
                "denied",
                ("--sandbox", "workspace-write"),
                "network denied through a config override, not a flag: "
                "-c sandbox_workspace_write.network_access=false (holds for commands in "
                "Codex's workspace-write sandbox; MCP servers run outside it)",
            ),
        ),
    ),
    home=AgentHome(
        "codex",
        (".codex",),
        "CODEX_HOME",
        settings=("config.toml", "hooks.json", "rules", "requirements.toml"),
        model_hosts=("api.openai.com", "chatgpt.com", "auth.openai.com"),
        base_url_env=("OPENAI_BASE_URL",),
        env_prefixes=("OPENAI_", "CODEX_"),
        credentials=("auth.json",),
        providers_in_config=True,
    ),
    project_dirs=(".codex",),
    permission_globs=(".codex",),
)
