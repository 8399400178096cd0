"""Gemini CLI (``@google/gemini-cli``): ``BeforeTool`` hooks in ``.gemini/settings.json``,
read only in a trusted folder; translation in ``bastion.adapters.hooks.gemini``."""

from __future__ import annotations

from bastion.agents.model import (
    Agent,
    AgentHome,
    AskHandling,
    Enforcement,
    Hooks,
    Launch,
    SettingsStyle,
    SettingWarning,
    TrustModel,
)

AGENT = Agent(
    name="gemini",
    title="Gemini CLI",
    verified="@google/gemini-cli 0.61.0",
    hooks=Hooks(
        folder=".gemini",
        file="settings.json",
        style=SettingsStyle.CLAUDE,
        event="BeforeTool",
        timeout_ms=True,
        matcher="*",
        handler_name="bastion",
        enforcement=Enforcement(ask=AskHandling.AGENT_PROMPT, rewrite=True),
        trust=TrustModel.GEMINI_FOLDERS,
        warnings=(
            SettingWarning(
                ("hooksConfig", "enabled"),
                False,
                "WARNING: hooksConfig.enabled is false: Gemini CLI will not run Bastion's hook.",
            ),
        ),
        probe={
            "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command",
            "tool_input": {"command": "rm -rf /"},
        },
        env_prefixes=("GEMINI_",),
    ),
    launch=Launch(
        executables=("gemini",),
        distrusted=(
            (
                "--approval-mode",
                "plan",
                "Gemini CLI overrides plan mode to default (which can write after asking) "
                "in a folder it does not trust, and its help does not say so",
            ),
        ),
    ),
    home=AgentHome(
        "gemini",
        (".gemini",),
        settings=("settings.json", "trustedFolders.json", "policies", "extensions"),
        model_hosts=(
            "generativelanguage.googleapis.com",
            "cloudcode-pa.googleapis.com",
            "oauth2.googleapis.com",
        ),
        base_url_env=("GOOGLE_GEMINI_BASE_URL",),
        env_prefixes=("GEMINI_", "GOOGLE_"),
        credentials=("oauth_creds.json", "google_accounts.json"),
    ),
    project_dirs=(".gemini",),
    permission_globs=(".gemini",),
)
