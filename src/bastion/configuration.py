"""The loaded configuration: the gate's ``Policy`` and, beside it, each other stage's
settings, typed and owned by the package that reads them.

The same layers (built-in defaults, user file, project file; see
:mod:`bastion.policy.loader`) are folded once by the core into the Policy and once per
section by that section's own small ``merge_<section>`` function, each keeping the trust
rule: an untrusted project layer may only tighten, and what it may not change is ignored
and listed in ``policy.warnings`` (``doctor`` and ``explain`` show them). Every load of a
policy goes through here, so a bad value in any section is a load error (file, line, key)
on every entry point.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bastion.adapters.hooks.settings import HookSettings, merge_hooks
from bastion.adapters.http.settings import GatewaySettings, merge_gateway
from bastion.approval.settings import LimitsConfig, merge_limits
from bastion.audit.settings import AuditConfig, merge_audit
from bastion.errors import PolicyError
from bastion.exec.settings import ExecConfig, merge_exec
from bastion.opinion.settings import SecondOpinionConfig, merge_opinion
from bastion.policy.compiled import Policy
from bastion.policy.layer import Layer
from bastion.state.settings import StateSettings, merge_state

if TYPE_CHECKING:
    from bastion.policy.sources import PolicySources


@dataclass(frozen=True, slots=True)
class Configuration:
    """One load: what the gate decides with, and one value per other section."""

    policy: Policy
    exec: ExecConfig = field(default_factory=ExecConfig)  # bastion.exec: the runner
    limits: LimitsConfig = field(default_factory=LimitsConfig)  # the Gatekeeper's guard
    audit: AuditConfig = field(default_factory=AuditConfig)  # the ledger
    gateway: GatewaySettings = field(default_factory=GatewaySettings)  # bastion serve's HTTP API
    hooks: HookSettings = field(default_factory=HookSettings)  # the agent hooks
    state: StateSettings = field(default_factory=StateSettings)  # where the stores live
    opinion: SecondOpinionConfig | None = None  # the escalate-only checker; None: none


def configure(policy: Policy, layers: Sequence[Layer]) -> Configuration:
    """Merge every non-gate section of ``layers``; the warnings join the policy's."""
    limits, w_limits = merge_limits(layers)
    audit, w_audit = merge_audit(layers)
    hooks, w_hooks = merge_hooks(layers)
    state, w_state = merge_state(layers)
    opinion, w_opinion = merge_opinion(layers)
    gateway, w_gateway = merge_gateway(layers)
    exec_config, w_exec = merge_exec(layers)
    warnings = (*w_limits, *w_audit, *w_hooks, *w_state, *w_opinion, *w_gateway, *w_exec)
    return Configuration(
        policy=dataclasses.replace(policy, warnings=(*policy.warnings, *warnings)) if warnings else policy,
        exec=exec_config,
        limits=limits,
        audit=audit,
        gateway=gateway,
        hooks=hooks,
        state=state,
        opinion=opinion,
    )


def _load(layers: list[Layer], *, cwd: str, env: Mapping[str, str]) -> Configuration:
    # The loader here, not at the top: a hook that finds its configuration in the cache
    # unpickles this module, and must not pay for the parser and the schema.
    from bastion.policy.loader import compile_layers, layer_files

    policy = compile_layers(layers, cwd=cwd, env=env)
    try:
        return configure(policy, layers)
    except PolicyError:
        raise
    except Exception as exc:  # a bad value deep in a section: a load error, never a traceback
        raise PolicyError(
            f"cannot be compiled: {type(exc).__name__}: {exc}", file=layer_files(layers)
        ) from exc


def load_sources(
    sources: PolicySources, env: Mapping[str, str], *, own: Layer | None = None
) -> Configuration:
    """The configuration of ``sources``; raises PolicyError on any problem. ``own``: the
    person's own file as this layer (``bastion.policy_edit`` checks a change with it)."""
    from bastion.policy.loader import layers_of, shadow_from_env

    loaded = _load(layers_of(sources, own=own), cwd=sources.cwd, env=env)
    return dataclasses.replace(loaded, policy=shadow_from_env(loaded.policy, env))


def load_configuration(
    path: str | None = None, *, cwd: str | None = None, env: Mapping[str, str] | None = None
) -> Configuration:
    """The configuration that applies (``--policy FILE``, else the user and project files)."""
    from bastion.policy.sources import PolicySources

    env = os.environ if env is None else env
    cwd = os.path.abspath(cwd or os.getcwd())
    return load_sources(PolicySources.find(path, cwd=cwd, env=env), env)


def load_policy(
    path: str | None = None, *, cwd: str | None = None, env: Mapping[str, str] | None = None
) -> Policy:
    """The Policy alone (every section is still checked: a broken one is a load error)."""
    return load_configuration(path, cwd=cwd, env=env).policy


def default_configuration(*, cwd: str, env: Mapping[str, str]) -> Configuration:
    """The built-in defaults alone: what a broken policy's denials are recorded under."""
    from bastion.policy.model import PolicyFile

    return _load([Layer(path=None, spec=PolicyFile(), trusted=True)], cwd=os.path.abspath(cwd), env=env)


def load_text(
    text: str, *, cwd: str, env: Mapping[str, str] | None = None, path: str | None = None
) -> Configuration:
    """A configuration from text alone (``POST /v1/policy/check``, tests)."""
    from bastion.policy.loader import parse_policy_text
    from bastion.policy.model import PolicyFile

    env = os.environ if env is None else env
    layers = [
        Layer(path=None, spec=PolicyFile(), trusted=True),
        parse_policy_text(text, path=path, base_dir=cwd),
    ]
    return _load(layers, cwd=cwd, env=env)


def load_policy_text(
    text: str, *, cwd: str, env: Mapping[str, str] | None = None, path: str | None = None
) -> Policy:
    """The Policy of ``text`` alone (every section still checked)."""
    return load_text(text, cwd=cwd, env=env, path=path).policy
