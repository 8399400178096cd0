"""Qwen Code (``@qwen-code/qwen-code``): ``PreToolUse`` hooks in ``.qwen/settings.json``;
translation in ``bastion.adapters.hooks.qwen``. Its hooks cannot rewrite a call (0.15.10
ignores ``updatedInput``: tests/adapters/hooks/test_e2e_rewrite.py), so only ``bastion
launch qwen`` contains what it runs."""

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
    name="qwen",
    title="Qwen Code",
    verified="@qwen-code/qwen-code 0.15.10",
    hooks=Hooks(
        folder=".qwen",
        file="settings.json",
        style=SettingsStyle.CLAUDE,
        event="PreToolUse",
        timeout_ms=True,
        matcher="*",
        handler_name="bastion",
        enforcement=Enforcement(ask=AskHandling.IGNORED, rewrite=False),
        trust=TrustModel.QWEN_FOLDERS,
        probe={
            "hook_event_name": "PreToolUse",
            "tool_name": "run_shell_command",
            "tool_input": {"command": "rm -rf /"},
        },
        env_prefixes=("QWEN_",),
    ),
    launch=Launch(executables=("qwen",)),
    home=AgentHome(
        "qwen",
        (".qwen",),
        settings=("settings.json", "trustedFolders.json", "extensions"),
        model_hosts=(
            "dashscope.aliyuncs.com",
            "dashscope-intl.aliyuncs.com",
            "chat.qwen.ai",
            "portal.qwen.ai",
        ),
        base_url_env=("OPENAI_BASE_URL",),
        env_prefixes=("OPENAI_", "QWEN_", "DASHSCOPE_"),
        credentials=("oauth_creds.json",),
    ),
    project_dirs=(".qwen",),
    permission_globs=("**/.qwen/settings*.json",),
)
