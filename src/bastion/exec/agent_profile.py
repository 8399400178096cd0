"""The ``agent:AGENT`` profile: an agent CLI itself contained, not one call of it.

Each agent's record in the registry (``bastion.agents``, its ``home``) says where that CLI
keeps its state (writable, so it can run), which of its files hold permissions or hooks
(read-only: the agent cannot loosen what stops it), and which hosts are its model API
(reachable through the egress proxy by default). ``agent_spec`` turns a record into a RunSpec:

* the workspace roots and the agent's state folders writable; every other path of HOME
  visible read-only, with credential files hidden at any depth (the same walk every
  contained call gets, ``exec.protected``), and rc files, repositories' config and hooks
  and agent settings read-only wherever they are;
* Bastion's state dir hidden, except the hook socket (``hook_dir``), so the hooks the agent
  runs still reach the gate and cannot rewrite policy or ledger;
* Bastion's own interpreter and the agent's install read-only, so both can start;
* no network but the egress proxy (the caller binds one); the ``[exec]`` pid and memory caps.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from urllib.parse import urlsplit

from bastion.agents.model import AgentHome
from bastion.agents.registry import AGENTS
from bastion.exec.boundary import child_environment, limits_of, protection, sandbox_roots
from bastion.exec.runner import ExecError, RunSpec
from bastion.exec.settings import ExecConfig
from bastion.policy.compiled import Policy

PREFIX = "agent:"
#: Where the hooks inside find the gate: a folder holding only ``hooks.sock``.
HOOK_SOCKET_ENV = "BASTION_HOOK_SOCKET"
#: Variables every agent needs to draw a terminal and find its tools.
BASE_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "COLORTERM", "TZ", "USER",
            "LOGNAME", "SHELL", "NO_COLOR", "FORCE_COLOR", "EDITOR", "VISUAL")  # fmt: skip


#: Each agent's home, from its record in the registry (``bastion.agents``).
AGENT_HOMES: Mapping[str, AgentHome] = MappingProxyType({a.name: a.home for a in AGENTS})


#: Tokens under HOME that the hardline list does not name, hidden from a contained agent:
#: other tools' logins it has no business reading.
HOME_TOKENS: tuple[str, ...] = (
    ".config/gh", ".config/hub", ".config/op", ".cargo/credentials", ".cargo/credentials.toml",
    ".gem/credentials", ".terraform.d/credentials.tfrc.json", ".password-store", ".vault-token",
    ".pgpass", ".my.cnf", ".m2/settings-security.xml",
)  # fmt: skip


def other_agents_tokens(agent: str, home: str, environ: Mapping[str, str]) -> tuple[str, ...]:
    """Every other agent's login tokens: running Qwen must not hand it Codex's ``auth.json``."""
    found = []
    for record in AGENT_HOMES.values():
        if record.name != agent:
            folder = agent_paths(record, home, environ).folders[0]
            found += [os.path.join(folder, name) for name in record.credentials]
    return tuple(found)


def agent_of(profile: str) -> str | None:
    """``"codex"`` for ``"agent:codex"``; None for any other profile name."""
    return profile[len(PREFIX) :] if profile.startswith(PREFIX) else None


def home_for(agent: str) -> AgentHome:
    found = AGENT_HOMES.get(agent)
    if found is None:
        names = ", ".join(sorted(AGENT_HOMES))
        raise ExecError(f"no agent profile for {agent!r} (one of: {names})")
    return found


@dataclass(frozen=True, slots=True)
class AgentPaths:
    """One agent's places on this machine, with ``~`` and its variables resolved."""

    folders: tuple[str, ...]  # its state folders
    files: tuple[str, ...]  # single state files
    settings: tuple[str, ...]  # read-only inside them
    model_hosts: tuple[str, ...]
    #: Variables its own configuration names for its keys (Codex's ``env_key``).
    env_names: tuple[str, ...] = ()


def agent_paths(record: AgentHome, home: str, environ: Mapping[str, str]) -> AgentPaths:
    moved = environ.get(record.folder_env or "", "")
    folders = [os.path.join(home, f) for f in record.folders]
    if moved:
        folders[0] = os.path.abspath(os.path.expanduser(moved))
    files = tuple(os.path.join(home, f) for f in record.files)
    settings = tuple(os.path.join(folders[0], s) for s in record.settings)
    providers = _codex_providers(record, folders[0])
    urls = [p.get("base_url") for p in providers]
    hosts = [*record.model_hosts, *_env_hosts(record, environ)]
    hosts += [urlsplit(u).hostname or "" for u in urls if isinstance(u, str)]
    keys = tuple(k for k in (p.get("env_key") for p in providers) if isinstance(k, str) and k)
    unique = tuple(dict.fromkeys(h.lower() for h in hosts if h))
    return AgentPaths(tuple(folders), files, settings, unique, keys)


def _env_hosts(record: AgentHome, environ: Mapping[str, str]) -> list[str]:
    return [urlsplit(environ[name]).hostname or "" for name in record.base_url_env if environ.get(name)]


def _codex_providers(record: AgentHome, folder: str) -> list[dict[str, object]]:
    """Codex names its model providers in ``config.toml`` (``[model_providers.X]`` with
    ``base_url`` and ``env_key``): their hosts are its model API, their keys its variables."""
    if not record.providers_in_config:
        return []
    try:
        with open(os.path.join(folder, "config.toml"), "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return []
    providers = data.get("model_providers")
    if not isinstance(providers, dict):
        return []
    return [p for p in providers.values() if isinstance(p, dict)]


def install_roots(argv: Sequence[str]) -> tuple[str, ...]:
    """What must be visible for the agent and Bastion's hook to start: this interpreter's
    prefixes, the folder holding the ``bastion`` package, and the agent's own install (the
    package folder above its ``node_modules``, else the executable's folder)."""
    import bastion

    roots = [sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))]
    roots.append(os.path.dirname(os.path.dirname(os.path.abspath(bastion.__file__))))
    if argv:
        for path in {os.path.abspath(argv[0]), os.path.realpath(argv[0])}:
            head, marker, _ = path.partition("/node_modules/")
            roots.append(head if marker else os.path.dirname(path))
    system = ("/usr", "/bin", "/sbin", "/lib")
    return tuple(dict.fromkeys(r for r in roots if r not in ("", "/") and not r.startswith(system)))


def ensure_folders(paths: AgentPaths) -> None:
    """Create the agent's state folders that do not exist yet (0700): a missing one could
    not be bound writable, and the agent could not start."""
    for path in paths.folders:
        if not os.path.lexists(path):
            with contextlib.suppress(OSError):
                os.makedirs(path, mode=0o700)


def agent_environment(
    record: AgentHome, paths: AgentPaths, config: ExecConfig, environ: Mapping[str, str], hook_dir: str
) -> dict[str, str]:
    """The allow-listed variables, the agent's own (by prefix), and the hook socket; never
    another tool's token (``AWS_*``, ``GITHUB_TOKEN`` for an agent that is not Copilot…)."""
    env = child_environment(config, environ)
    env |= {n: environ[n] for n in BASE_ENV if n in environ}
    env |= {n: v for n, v in environ.items() if n.startswith(record.env_prefixes) or n in paths.env_names}
    env[HOOK_SOCKET_ENV] = os.path.join(hook_dir, "hooks.sock")
    return env


def agent_spec(
    policy: Policy,
    config: ExecConfig,
    agent: str,
    argv: Sequence[str],
    *,
    cwd: str,
    environ: Mapping[str, str],
    hook_dir: str,
    timeout: float | None = None,
    create: bool = True,
) -> RunSpec:
    """The RunSpec of ``agent:AGENT`` for ``argv`` (network: none until an egress proxy is
    bound); ``create`` makes the agent's missing state folders first. Raises
    ScanBudgetExceeded when HOME is too big to check for credentials."""
    record = home_for(agent)
    paths = agent_paths(record, policy.home, environ)
    if create:
        ensure_folders(paths)
    workspace, policy_readonly, hidden = sandbox_roots(policy, writes=True)
    mine = (*workspace, *paths.folders, *paths.files)
    writable = tuple(p for p in dict.fromkeys(mine) if os.path.lexists(p))
    # Bastion's interpreter and the agent's install are programs, not a place for keys: bound
    # read-only without the walk (one inside HOME or the workspace is walked with it).
    readonly = (policy.home, *policy_readonly, hook_dir)
    plan = protection(policy, config, writable, readonly)
    # The state dir is hidden (an empty read-only folder) even where no root holds it: a
    # hook that cannot reach the socket then cannot decide on a throwaway ledger either.
    state = (policy.state_dir,) if os.path.isdir(policy.state_dir) else ()
    tokens = (
        *(os.path.join(policy.home, t) for t in HOME_TOKENS),
        *other_agents_tokens(agent, policy.home, environ),
    )
    settings_there = tuple(s for s in paths.settings if os.path.lexists(s))
    settings_missing = tuple(s for s in paths.settings if not os.path.lexists(s))
    spec = RunSpec(
        argv=tuple(argv),
        cwd=cwd,
        env=agent_environment(record, paths, config, environ, hook_dir),
        timeout=timeout or 86_400.0,
        max_output_bytes=config.max_output_bytes,
        writable_roots=(*writable, *plan.pinned),
        readonly_roots=(*readonly, *install_roots(argv), *plan.readonly, *settings_there, *state),
        # Only what exists: HOME is read-only here, so a missing credential file cannot be
        # created by the agent, and bwrap could not make a mount point for it either.
        hidden_paths=tuple(p for p in (*hidden, *plan.hidden, *tokens) if os.path.lexists(p)),
        limits=limits_of(config),
        hosts=paths.model_hosts,
        swept=(*plan.swept, *settings_missing),
        links=plan.links,
        quarantine=os.path.join(policy.state_dir, "quarantine"),
        profile=f"{PREFIX}{agent}",
    )
    return replace(spec, hidden_paths=_outermost(spec.hidden_paths))


def _outermost(paths: tuple[str, ...]) -> tuple[str, ...]:
    """Each hidden path once, and none inside another: once a folder is hidden, a file in
    it no longer exists in the read-only HOME, and bwrap could not mount over it."""
    unique = tuple(dict.fromkeys(os.path.normpath(p) for p in paths))
    return tuple(p for p in unique if not any(p.startswith(q.rstrip("/") + "/") for q in unique if q != p))


def contained_start_check(
    policy: Policy, config: ExecConfig, agent: str, *, cwd: str, environ: Mapping[str, str]
) -> tuple[bool, str]:
    """Can ``bastion launch AGENT`` start it contained here? Builds the profile (the walk of
    HOME for credentials included) and runs ``true`` in it; creates nothing."""
    import tempfile

    from bastion.exec.bubblewrap import BubblewrapRunner
    from bastion.exec.select import bwrap_problem

    problem = bwrap_problem()
    if problem is not None:
        return False, f"bastion launch {agent} will not start it: {problem}"
    with tempfile.TemporaryDirectory(prefix="bastion-hooks-") as hook_dir:
        try:
            spec = agent_spec(policy, config, agent, ["true"], cwd=cwd, environ=environ, hook_dir=hook_dir,
                              timeout=30, create=False)  # fmt: skip
            result = BubblewrapRunner().run(spec)
        except ExecError as exc:
            return False, f"bastion launch {agent} will not start it: {exc}"
    if result.exit_code != 0:
        detail = result.stderr.strip()[:200] or f"exit {result.exit_code}"
        return False, f"the agent:{agent} sandbox does not start here: {detail}"
    hosts = ", ".join(spec.hosts) or "none"
    return True, f"bastion launch {agent} runs it in agent:{agent} (model API through the proxy: {hosts})"
