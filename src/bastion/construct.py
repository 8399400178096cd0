"""The one constructor: the only place a ``Gate`` and its ``Gatekeeper`` are built.

Every entry point (the Python API, ``check``/``explain``, ``bastion serve`` and its hook
socket, the hooks in process, ``mcp proxy``/``mcp serve``, ``tool``, ``launch``, replay and
learn) builds its engine here, so they all choose the resolver, the sandbox availability
and the stores the same way. A difference an entry point really needs is a named field of
:class:`GateOptions`, and ``bastion explain`` prints them all (:meth:`GateOptions.describe`).

A policy that failed to load, or fails the one boot check (:mod:`bastion.boot`), is not an
exception to the caller of :func:`keeper_for` (every entry point that follows a policy's
files: serve, its hook socket, the hooks in process, ``mcp proxy``): :func:`broken_keeper`
is a Gatekeeper whose gate denies every call with the one rule ``policy.invalid``, recorded
in the ledger like any other decision. ``open_gatekeeper`` (the Python API) does not refuse:
``tool``, ``mcp serve`` and ``launch`` run the same boot check before they build one.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.approval.clock import Clock
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.boot import check_boot
from bastion.call.model import ToolCall
from bastion.configuration import Configuration, default_configuration, load_sources
from bastion.policy.compiled import Policy
from bastion.policy.decision import Evaluation, deny_for_error
from bastion.policy.engine import Gate
from bastion.policy.judge import Judge
from bastion.policy.network import Resolver, SystemResolver
from bastion.policy.paths import FileSystem
from bastion.policy.sources import PolicySources, state_dir_from
from bastion.policy.tree import Tree
from bastion.runtime import Gatekeeper, PermissionCallback

if TYPE_CHECKING:
    from bastion.opinion.consult import SecondOpinion
    from bastion.runtime.contain import Containment
    from bastion.shell.model import ShellAnalysis

#: The rule of every denial while the policy does not load (parse, validation or any error).
POLICY_INVALID = "policy.invalid"


def sandbox_available() -> bool:
    """Will code run inside bubblewrap here? Only then is ``code`` allowed without asking."""
    from bastion.exec.select import sandbox_available as probe  # here: a hook rarely needs it

    return bool(probe())


@dataclass(frozen=True, slots=True)
class GateOptions:
    """Every choice a Gate is built with. ``None`` means "the default, chosen once" (see
    :meth:`settled`): the system resolver, and bubblewrap probed on this machine."""

    #: Looks host names up, so an allowed name that points at a private, metadata or
    #: denied address is refused. ``None``: the system resolver.
    resolver: Resolver | None = None
    #: False: host names are never looked up (only literal addresses are checked).
    resolve_hosts: bool = True
    #: Will allowed ``code`` run inside the OS sandbox? ``None``: probe bubblewrap. An agent
    #: hook says False: the agent runs the code itself, outside Bastion's sandbox.
    sandboxed: bool | None = None
    #: Why ``sandboxed`` was set by hand (shown by ``explain``).
    sandbox_note: str = ""
    fs: FileSystem | None = None
    tree: Tree | None = None
    #: Does this entry point run the calls it is answered contained, as the answer's profile
    #: says (an agent hook rewrites them)? Then the Gatekeeper applies ``[exec] contain``.
    contain: bool = False
    #: Will an allowed shell call run contained, so workspace code may be allowed
    #: (``bastion.policy.contained_code``)? ``None``: as ``contain`` says. The Gatekeeper
    #: turns such an allow into a question for a call that would run as written.
    contained_shell: bool | None = None

    def settled(self) -> GateOptions:
        """The same options with every default chosen, so each rebuild reuses them."""
        resolver = self.resolver
        if resolver is None and self.resolve_hosts:
            resolver = SystemResolver()
        sandboxed = sandbox_available() if self.sandboxed is None else self.sandboxed
        contained = self.contain if self.contained_shell is None else self.contained_shell
        return dataclasses.replace(self, resolver=resolver, sandboxed=sandboxed, contained_shell=contained)

    def describe(self) -> tuple[str, ...]:
        """One line per choice, for ``bastion explain``."""
        settled = self.settled()
        if not settled.resolve_hosts:
            dns = "not resolved (only literal addresses are checked)"
        else:
            dns = f"resolved with {type(settled.resolver).__name__} (private and metadata addresses refused)"
        code = (
            "inside the OS sandbox" if settled.sandboxed else "outside any sandbox (allowed code still asks)"
        )
        note = f" — {settled.sandbox_note}" if settled.sandbox_note else ""
        shell = (
            "run contained: workspace code is allowed"
            if settled.contained_shell
            else "may run as written: workspace code asks"
        )
        return (
            f"gate option: host names {dns}",
            f"gate option: code runs {code}{note}",
            f"gate option: allowed shell calls {shell}",
        )


#: An agent hook: the agent runs a ``code`` call itself, outside Bastion's sandbox; a shell
#: call its hook rewrites runs in the answer's profile (``contain``), so workspace code may be
#: allowed (a hook that cannot rewrite gets a question: ``runtime.contain.held_to_sandbox``).
HOOK_OPTIONS = GateOptions(
    sandboxed=False, sandbox_note="an agent hook: the agent runs code itself", contain=True
)
#: Replay and learn: recorded calls decided again offline, so no host name is looked up.
OFFLINE_OPTIONS = GateOptions(
    resolve_hosts=False,
    sandboxed=False,
    sandbox_note="offline replay: decided as the hooks would, without DNS",
    contained_shell=True,
)

#: The entry points whose engine differs from the default on purpose, by name (``explain``).
NAMED_OPTIONS: dict[str, GateOptions] = {"agent hooks": HOOK_OPTIONS, "replay and learn": OFFLINE_OPTIONS}


def describe_differences(chosen: GateOptions | None = None) -> tuple[str, ...]:
    """What each named entry point chooses differently from ``chosen`` (default: the default
    options), one line per choice (``explain``)."""
    default = (chosen or GateOptions()).describe()
    return tuple(
        f"{line} (for {name})"
        for name, options in NAMED_OPTIONS.items()
        for line in options.describe()
        if line not in default
    )


def build_gate(policy: Policy, options: GateOptions | None = None) -> Gate:
    settled = (options or GateOptions()).settled()
    return Gate(
        policy,
        fs=settled.fs,
        tree=settled.tree,
        resolver=settled.resolver if settled.resolve_hosts else None,
        sandboxed=bool(settled.sandboxed),
        contained=bool(settled.contained_shell),
    )


class BrokenGate:
    """The gate of a policy that did not load: every call is denied with the load error
    (a :class:`~bastion.policy.judge.Judge` of its own, not a ``Gate`` that could decide)."""

    def __init__(self, policy: Policy, error: str) -> None:
        self.policy = policy
        self.error = error
        self._answer = deny_for_error(
            f"the policy failed to load, so every call is denied until it is fixed: {error}",
            rule=POLICY_INVALID,
        )

    def evaluate(self, call: ToolCall) -> Evaluation:
        return self._answer

    def analyze_shell(self, command: str, /) -> ShellAnalysis:
        from bastion.shell.analysis import analyze

        return analyze(command)

    def over(self, policy: Policy) -> Judge:
        return self  # a broken policy stays broken for a delegated child too

    def explain(self, call: ToolCall) -> Evaluation:
        return dataclasses.replace(self._answer, trace=(f"policy: failed to load: {self.error}",))


def open_gatekeeper(
    config: Configuration,
    env: Mapping[str, str] | None = None,
    *,
    options: GateOptions | None = None,
    gate: Judge | None = None,
    share: Gatekeeper | None = None,
    clock: Clock | None = None,
    on_permission: PermissionCallback | None = None,
) -> Gatekeeper:
    """A Gatekeeper over ``gate`` (default: one built from ``config.policy`` and ``options``)
    with the configuration's ``[limits]``, ``[audit]``, ``[second_opinion]`` and, when
    ``options.contain``, ``[exec] contain``.

    ``share``: use that keeper's store, ledger and clock (a reload); otherwise open the
    state stores: ``<state_dir>/bastion.db`` (dir 0700, key and db 0600) by default, or the
    PostgreSQL database of ``BASTION_STATE_URL`` / ``state_url``."""
    gate = gate or build_gate(config.policy, options)
    opinion = _opinion(config)
    containment = containment_for(config) if options is not None and options.contain else None
    if share is not None:
        return Gatekeeper(
            gate,
            store=share.store,
            ledger=share.ledger,
            clock=clock or share.clock,
            on_permission=on_permission or share.on_permission,
            limits=config.limits,
            audit=config.audit,
            opinion=opinion,
            containment=containment,
        )
    from bastion.state import open_stores, state_url_for

    environ = os.environ if env is None else env
    state_dir = config.policy.state_dir if env is None else state_dir_from(env)
    stores = open_stores(state_url_for(config.state, environ), state_dir)
    hasher = ArgumentHasher(stores.hasher_key())
    return Gatekeeper(
        gate,
        store=stores.approvals,
        ledger=Ledger(stores.ledger, hasher=hasher),
        clock=clock,
        on_permission=on_permission,
        limits=config.limits,
        audit=config.audit,
        opinion=opinion,
        containment=containment,
    )


def containment_for(config: Configuration) -> Containment:
    """``[exec] contain``, with this machine's sandbox answering "can it be contained?"."""
    from bastion.exec.host import HostSandbox
    from bastion.runtime.contain import Containment

    return Containment(config.exec.contain, HostSandbox(config.policy, config.exec))


def sibling(keeper: Gatekeeper, gate: Judge) -> Gatekeeper:
    """A Gatekeeper over ``gate`` (a gate wrapping ``keeper``'s) that shares everything
    else of ``keeper`` (:meth:`Gatekeeper.with_gate`)."""
    return keeper.with_gate(gate)


def _opinion(config: Configuration) -> SecondOpinion | None:
    if config.opinion is None:
        return None
    from bastion.opinion.consult import opinion_from  # runs commands, posts to URLs: only when set

    return opinion_from(config.opinion)


def broken_keeper(
    error: BaseException | str,
    sources: PolicySources,
    env: Mapping[str, str],
    *,
    share: Gatekeeper | None = None,
) -> Gatekeeper:
    """A Gatekeeper that denies (and records) every call because the policy did not load."""
    text = error if isinstance(error, str) else _error_text(error)
    # Sharing a keeper: its policy, no stores to open (every call is denied: no section matters).
    config = (
        Configuration(share.policy) if share is not None else default_configuration(cwd=sources.cwd, env=env)
    )
    return open_gatekeeper(config, env, gate=BrokenGate(config.policy, text), share=share)


def keeper_for(
    sources: PolicySources,
    env: Mapping[str, str],
    *,
    options: GateOptions | None = None,
    share: Gatekeeper | None = None,
    config: Configuration | None = None,
) -> Gatekeeper:
    """The Gatekeeper for ``sources`` (``config``: already loaded from them): loaded, or
    broken when any part of loading fails."""
    try:
        loaded = config if config is not None else load_sources(sources, env)
        check_boot(loaded.policy)  # a policy no entry point may start on is as good as broken
    except Exception as exc:  # parse, validation or anything else: deny everything, recorded
        return broken_keeper(exc, sources, env, share=share)
    return open_gatekeeper(loaded, env, options=options, gate=build_gate(loaded.policy, options), share=share)


def broken(keeper: Gatekeeper) -> str | None:
    """The load error a broken keeper denies with; None for a working one."""
    return keeper.gate.error if isinstance(keeper.gate, BrokenGate) else None


def _error_text(error: BaseException) -> str:
    from bastion.errors import BastionError

    return str(error) if isinstance(error, BastionError) else f"{type(error).__name__}: {error}"
