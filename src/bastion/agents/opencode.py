"""opencode (``opencode-ai``): Bastion's plugin ``plugin/bastion.js`` in ``.opencode`` or the
user's ``~/.config/opencode`` (``tool.execute.before`` and ``permission.asked``); translation
in ``bastion.adapters.hooks.opencode``, the plugin in ``bastion/adapters/hooks/plugins``."""

from __future__ import annotations

from bastion.agents.model import (
    Agent,
    AgentHome,
    AskHandling,
    Enforcement,
    Hooks,
    Launch,
    SettingsStyle,
)

NOTES = (
    "opencode loads plugins when it starts: restart running opencode sessions. `opencode --pure` "
    "starts without plugins, so without Bastion, and opencode skips a plugin that fails to load "
    "(it only logs 'failed to load plugin'): `bastion doctor` checks the file is intact. "
    "With OPENCODE_DISABLE_PROJECT_CONFIG set, opencode ignores the project's .opencode folder: "
    "install with --user then.",
)

AGENT = Agent(
    name="opencode",
    title="opencode",
    verified="opencode-ai 1.18.33",
    hooks=Hooks(
        folder=".opencode",
        user_folder=".config/opencode",
        file="plugin/bastion.js",
        style=SettingsStyle.OWN_FILE,
        template="plugins/opencode.js",
        file_kind="plugin",
        event="tool.execute.before",
        extra_events=("permission.asked",),
        # opencode has no prompt a plugin can raise (its permission.ask hook is no longer
        # called); the plugin's args object is the one the tool runs with, so it rewrites.
        enforcement=Enforcement(ask=AskHandling.IGNORED, rewrite=True),
        install_notes=NOTES,
        probe={
            "hook_event_name": "tool.execute.before",
            "tool_name": "bash",
            "tool_input": {"command": "rm -rf /"},
        },
    ),
    launch=Launch(executables=("opencode",)),
    home=AgentHome(
        "opencode",
        (".local/share/opencode", ".config/opencode", ".cache/opencode"),
        settings=("opencode.json", "opencode.jsonc", "plugin"),
        model_hosts=("api.anthropic.com", "api.openai.com", "opencode.ai", "models.dev"),
        env_prefixes=("OPENCODE_", "ANTHROPIC_", "OPENAI_"),
        credentials=("auth.json",),
    ),
    # A plugin written there runs inside opencode, outside every sandbox, at its next start.
    project_dirs=(".opencode",),
    permission_globs=("**/opencode.json", "**/.opencode"),
)
