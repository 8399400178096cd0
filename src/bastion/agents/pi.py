"""pi (``@mariozechner/pi-coding-agent``): launched and contained (``agent:pi``); no hook yet."""

from __future__ import annotations

from bastion.agents.model import Agent, AgentHome, Launch

AGENT = Agent(
    name="pi",
    title="pi",
    verified="@mariozechner/pi-coding-agent 0.73.1",
    launch=Launch(executables=("pi",)),
    home=AgentHome(
        "pi",
        (".pi",),
        settings=("agent/settings.json", "agent/extensions"),
        model_hosts=("api.anthropic.com", "api.openai.com"),
        env_prefixes=("PI_", "ANTHROPIC_", "OPENAI_"),
    ),
)
