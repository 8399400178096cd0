"""opencode (``opencode-ai``): launched and contained (``agent:opencode``); no hook yet."""

from __future__ import annotations

from bastion.agents.model import Agent, AgentHome, Launch

AGENT = Agent(
    name="opencode",
    title="opencode",
    verified="opencode-ai 1.18.33",
    launch=Launch(executables=("opencode",)),
    home=AgentHome(
        "opencode",
        (".local/share/opencode", ".config/opencode", ".cache/opencode"),
        settings=("opencode.json", "opencode.jsonc", "plugin"),
        model_hosts=("api.anthropic.com", "api.openai.com", "opencode.ai", "models.dev"),
        env_prefixes=("OPENCODE_", "ANTHROPIC_", "OPENAI_"),
        credentials=("auth.json",),
    ),
    permission_globs=("**/opencode.json",),
)
