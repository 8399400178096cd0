"""pi (``@mariozechner/pi-coding-agent``): no hook settings, it loads TypeScript extensions;
``bastion install pi`` writes Bastion's (``bastion/adapters/hooks/pi_extension.ts``) where pi
discovers them, and its ``tool_call`` handler runs ``bastion hook pi`` per call. Translation
in ``bastion.adapters.hooks.pi``. ``event.input`` is mutable, so an allowed shell call runs
contained; ``ask`` goes to pi's own dialog where pi has one (``ctx.hasUI``)."""

from __future__ import annotations

from bastion.agents.model import Agent, AgentHome, AskHandling, Enforcement, Hooks, Launch, SettingsStyle

#: Printed after ``bastion install pi`` (pi 0.73.1: ``--no-extensions`` skips discovery; an
#: extension that fails to load stops pi before its first call, checked end to end).
NOT_LOADED_NOTE = (
    "pi loads the extension at start-up: a pi started with --no-extensions (-ne) runs without "
    "Bastion, and an extension file that fails to load stops pi before any call. `bastion "
    "doctor` asks pi itself whether it loads the file from here."
)

AGENT = Agent(
    name="pi",
    title="pi",
    verified="@mariozechner/pi-coding-agent 0.73.1",
    hooks=Hooks(
        folder=".pi",
        file="extensions/bastion.ts",
        user_folder=".pi/agent",
        user_folder_env="PI_CODING_AGENT_DIR",
        style=SettingsStyle.OWN_FILE,
        template="pi_extension.ts",
        file_kind="extension",
        event="tool_call",
        enforcement=Enforcement(ask=AskHandling.AGENT_PROMPT, rewrite=True),
        install_notes=(NOT_LOADED_NOTE,),
        probe={"toolName": "bash", "toolCallId": "bastion-doctor", "input": {"command": "rm -rf /"}},
    ),
    launch=Launch(executables=("pi",)),
    home=AgentHome(
        "pi",
        (".pi",),
        settings=("agent/settings.json", "agent/extensions"),
        model_hosts=("api.anthropic.com", "api.openai.com"),
        env_prefixes=("PI_", "ANTHROPIC_", "OPENAI_"),
    ),
    # Extensions, settings (overrides, the shell prefix), models (base URLs): all run or read by pi.
    project_dirs=(".pi",),
    permission_globs=("**/.pi",),
)
