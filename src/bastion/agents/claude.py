"""Claude Code (``@anthropic-ai/claude-code``): ``PreToolUse`` and ``PermissionRequest``
hooks in ``.claude/settings.json``; translation in ``bastion.adapters.hooks.claude``."""

from __future__ import annotations

import sys

from bastion.agents.model import (
    Agent,
    AgentHome,
    AskHandling,
    Enforcement,
    Hooks,
    Launch,
    Override,
    SettingsStyle,
    SettingWarning,
)

#: ``permissions.deny`` entries mirroring Bastion's hardline rules, so a hook that fails to
#: start still leaves the worst calls blocked by Claude itself.
DENY_MIRROR: tuple[str, ...] = (
    "Read(~/.ssh/**)",
    "Edit(~/.ssh/**)",
    "Write(~/.ssh/**)",
    "Read(~/.aws/**)",
    "Edit(~/.aws/**)",
    "Read(~/.gnupg/**)",
    "Edit(~/.gnupg/**)",
    "Read(~/.kube/**)",
    "Read(~/.netrc)",
    "Read(~/.git-credentials)",
    "Edit(~/.config/bastion/**)",
    "Write(~/.config/bastion/**)",
    "Edit(~/.local/state/bastion/**)",
    "Write(~/.local/state/bastion/**)",
    "Bash(rm -rf /)",
    "Bash(rm -rf /*)",
    "Bash(rm -rf ~)",
    "Bash(rm -rf ~/*)",
    "Bash(sudo rm -rf /*)",
    "Bash(mkfs:*)",
    "Bash(dd if=* of=/dev/*)",
)

SANDBOX_SETTINGS = (
    '{"sandbox":{"enabled":true,"failIfUnavailable":true,"autoAllowBashIfSandboxed":false,'
    '"allowUnsandboxedCommands":false,"network":{"allowedDomains":[]}},'
    '"permissions":{"deny":["WebFetch","WebSearch"]}}'
)

#: What Claude Code's sandbox runs on: bubblewrap and socat on Linux (macOS has its own).
SANDBOX_HELPERS = ("bwrap", "socat") if sys.platform.startswith("linux") else ()

BYPASS_WARNING = (
    "WARNING: permissions.defaultMode is bypassPermissions. Claude Code still obeys "
    "Bastion's deny, but every call Bastion allows or hands to Claude's prompt runs "
    "unasked. Remove defaultMode unless that is what you want."
)

AGENT = Agent(
    name="claude",
    title="Claude Code",
    verified="@anthropic-ai/claude-code 2.1.197",
    hooks=Hooks(
        folder=".claude",
        file="settings.json",
        style=SettingsStyle.CLAUDE,
        event="PreToolUse",
        extra_events=("PermissionRequest",),
        matcher="*",
        enforcement=Enforcement(ask=AskHandling.AGENT_PROMPT, rewrite=True),
        deny_mirror=DENY_MIRROR,
        warnings=(SettingWarning(("permissions", "defaultMode"), "bypassPermissions", BYPASS_WARNING),),
        probe={"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}},
        env_prefixes=("CLAUDE_",),
    ),
    launch=Launch(
        executables=("claude",),
        overrides=(
            Override(
                "--settings",
                ("settings", "json"),
                SANDBOX_SETTINGS,
                "denied",
                (),
                "network denied through a config override, not a flag: --settings with a "
                "sandbox block (Bash runs in Claude's sandbox with no allowed domains and "
                "may not leave it; WebFetch and WebSearch denied); MCP servers run outside "
                "that sandbox, and Claude refuses to start if the sandbox cannot",
                helpers=SANDBOX_HELPERS,
            ),
        ),
    ),
    home=AgentHome(
        "claude",
        (".claude",),
        "CLAUDE_CONFIG_DIR",
        files=(".claude.json",),
        settings=("settings.json", "settings.local.json", "hooks", "managed-settings.json"),
        model_hosts=("api.anthropic.com", "console.anthropic.com", "claude.ai"),
        base_url_env=("ANTHROPIC_BASE_URL",),
        env_prefixes=("ANTHROPIC_", "CLAUDE_"),
        credentials=(".credentials.json",),
    ),
    project_dirs=(".claude",),
    permission_globs=("**/.claude/settings*.json", "**/.claude/hooks", "**/.mcp.json"),
)
