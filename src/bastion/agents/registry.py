"""The one registry of agents: one record per agent CLI, read by every command that knows
agents -- ``install``/``uninstall`` (``adapters.hooks.targets``, ``install``), ``doctor``,
the project-trust checks (``adapters.hooks.agent_trust``), the hook (``adapters.hooks.entry``,
``client``), ``launch``/``agents`` (``launch.agents``), the ``agent:AGENT`` sandbox
(``exec.agent_profile``), what a contained call may not touch (``exec.protected``) and the
hard line on agent settings (``policy.hardline``).

This package sits at the bottom of the package order (pure data, imports only the error
types): the policy core and the exec layer read it too.

How to add an agent
-------------------
1. ``bastion/agents/NAME.py``: ``AGENT = Agent(...)`` (``bastion.agents.model``): its title
   and the package version checked; ``launch`` (executables, config overrides the help
   cannot tell); ``home`` (the folders it writes, its settings and credentials, its model
   API hosts, its variables); ``project_dirs``, ``project_paths`` and ``permission_globs``
   (every place in a project whose settings could turn its hooks off: read the agent's own
   docs for all of them); and ``hooks`` when Bastion can gate its tool calls: the settings
   file, the entry style, the event, ``enforcement`` (does ``ask`` reach a prompt, can an
   answer rewrite the call), its trust model, warnings, notes, and a doctor probe in its
   wire format.
2. Add ``NAME.AGENT`` to ``AGENTS`` below.
3. With ``hooks``: ``bastion/adapters/hooks/NAME.py``, its translation (``PROTOCOL``, an
   ``AgentProtocol``: hook JSON in, the agent's answer out), whose ``honours_ask`` and
   ``rewrites_input`` read the record (``enforcement_of``). A settings ``style`` or a
   ``TrustModel`` no agent had before also needs its writer in ``adapters.hooks.targets``
   or its check in ``adapters.hooks.agent_trust``.
4. Tests: the wire format (``tests/adapters/hooks/test_golden_wire.py`` style) and the
   real CLI end to end (``tests/adapters/hooks/test_e2e_NAME.py``, model API on loopback).
   ``tests/agents/test_registry.py`` then checks the rest: the hook module exists and
   agrees with the record, the README lists it, the hook client forwards its variables.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bastion.agents import claude, codex, copilot, gemini, opencode, pi, qwen
from bastion.agents.model import Agent, Enforcement, Hooks
from bastion.errors import BastionError

#: Every agent, in the order listings show them.
AGENTS: tuple[Agent, ...] = (
    claude.AGENT,
    codex.AGENT,
    gemini.AGENT,
    qwen.AGENT,
    copilot.AGENT,
    opencode.AGENT,
    pi.AGENT,
)

BY_NAME: Mapping[str, Agent] = MappingProxyType({agent.name: agent for agent in AGENTS})


class UnknownAgent(BastionError, ValueError):
    """A name no record has."""


def agent(name: str) -> Agent:
    found = BY_NAME.get(name)
    if found is None:
        raise UnknownAgent(f"unknown agent {name!r} (one of: {', '.join(BY_NAME)})")
    return found


def hooked() -> tuple[Agent, ...]:
    """The agents whose tool calls Bastion's hook gates (``bastion install NAME``)."""
    return tuple(a for a in AGENTS if a.hooks is not None)


def hooks_of(name: str) -> Hooks:
    """The record's hooks; ``UnknownAgent`` when Bastion has no hook for ``name``."""
    hooks = agent(name).hooks
    if hooks is None:
        raise UnknownAgent(f"Bastion has no hook for {name!r} (use bastion launch {name})")
    return hooks


def enforcement_of(name: str) -> Enforcement:
    return hooks_of(name).enforcement


def hook_names() -> tuple[str, ...]:
    return tuple(a.name for a in hooked())


def hook_env_prefixes() -> tuple[str, ...]:
    """``BASTION_`` and every hooked agent's own prefixes: the variables a hook forwards."""
    found = ["BASTION_"]
    for a in hooked():
        assert a.hooks is not None
        found += [p for p in a.hooks.env_prefixes if p not in found]
    return tuple(found)


def project_dirs() -> tuple[str, ...]:
    return tuple(d for a in AGENTS for d in a.project_dirs)


def project_paths() -> tuple[str, ...]:
    return tuple(p for a in AGENTS for p in a.project_paths)


def permission_globs() -> tuple[str, ...]:
    return tuple(g for a in AGENTS for g in a.permission_globs)


def uncontained() -> tuple[Agent, ...]:
    """Hooked agents whose hook answer cannot rewrite a call: what runs is what they wrote."""
    return tuple(a for a in hooked() if a.hooks is not None and not a.hooks.enforcement.rewrite)
