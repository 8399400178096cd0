"""From a Policy and the ``[exec]`` config to a RunSpec: roots, hidden paths, environment."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from bastion.exec.linked import home_kept
from bastion.exec.profile import Profile
from bastion.exec.protected import (
    PROTECTED_CHILDREN,
    PROTECTED_DIRS,
    PROTECTED_FILES,
    ProtectionPlan,
    plan_protection,
)
from bastion.exec.runner import Limits, RunSpec
from bastion.exec.settings import ExecConfig
from bastion.policy.ceiling import FilesystemLevel
from bastion.policy.compiled import Policy
from bastion.policy.kinds import Mode

#: Credential locations under HOME, hidden whenever a root would otherwise expose them.
HOME_CREDENTIALS: tuple[str, ...] = (
    ".ssh", ".aws", ".gnupg", ".kube", ".azure", ".config/gcloud", ".docker", ".netrc",
    ".pypirc", ".npmrc", ".git-credentials", ".local/share/keyrings", ".bastion",
)  # fmt: skip


#: Every command Bastion runs is told where the credentials dir is (the 002 seed's
#: ``$NOURIDE_CREDENTIALS_DIR``). Contained, the dir is not there: it lies outside every root
#: (the boot check) and is hidden besides, so a secret reaches a contained command only
#: through ``[exec] secrets``; uncontained (the unsandboxed runner, "approve uncontained",
#: ``contain = "off"``) a command the person wrote may read it. An agent's own call that
#: names the variable is a credential read (bastion.shell.disclosure.names_credentials_dir).
CREDENTIALS_ENV = "BASTION_CREDENTIALS_DIR"


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def writes_allowed(policy: Policy) -> bool:
    ceiling = policy.ceiling
    read_only = ceiling is not None and ceiling.filesystem is FilesystemLevel.READ_ONLY
    return policy.mode is not Mode.READ_ONLY and not read_only


def sandbox_roots(
    policy: Policy, *, writes: bool = True
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(writable, read-only, hidden) paths for a child under this policy.

    Read-only mode (a read-only ceiling, or ``writes=False``: a read-only profile) binds the
    workspace read-only. Policy files inside a writable root are overlaid read-only: an
    agent must not edit its own rules.
    """
    writable = tuple(policy.write_roots) if writes and writes_allowed(policy) else ()
    readonly = [r for r in policy.read_roots if r not in writable]
    for source in policy.sources:
        path = os.path.abspath(source)
        if os.path.exists(path) and any(_inside(path, r) for r in writable):
            readonly.append(path)
    hidden = [policy.credentials_dir, policy.state_dir]
    hidden += [os.path.join(policy.home, name) for name in HOME_CREDENTIALS]
    return writable, tuple(dict.fromkeys(readonly)), tuple(dict.fromkeys(hidden))


def approved_writes(policy: Policy, writes: Sequence[str]) -> tuple[str, ...]:
    """What to mount writable for the paths outside the workspace a person approved a call
    to write: each path, or its nearest existing folder when it does not exist yet. Never
    ``/``, HOME, anything in it or a folder above it (an approved run never gets the host's
    HOME: rc files, autostart entries, user services, notes and agent settings all live
    there), a credential location, Bastion's own state or any repository's folder: such a
    write fails in the sandbox (the person can still "approve uncontained")."""
    home = os.path.abspath(policy.home)
    refused = [policy.credentials_dir, policy.state_dir, *(os.path.join(home, c) for c in HOME_CREDENTIALS)]
    found = []
    for path in writes:
        target = os.path.normpath(path)
        while not os.path.lexists(target) and target != "/":
            target = os.path.dirname(target)
        if target == "/" or _inside(home, target) or _inside(target, home):
            continue
        if any(_inside(target, r) for r in refused):
            continue
        if policy.hardline.credentials.first_match(target) is not None or _protected(target):
            continue
        found.append(target)
    return tuple(dict.fromkeys(found))


def _protected(path: str) -> bool:
    """A path no approved write may open up: rc files, agent settings, repositories
    (anywhere: HOME itself is refused before this)."""
    parts = path.split("/")
    if any(p in PROTECTED_DIRS or p in PROTECTED_FILES or p in (".git", ".gitconfig") for p in parts):
        return True
    return any(parts[i + 1] in PROTECTED_CHILDREN.get(p, ()) for i, p in enumerate(parts[:-1]))


def protection(
    policy: Policy,
    config: ExecConfig,
    writable: Sequence[str],
    readonly: Sequence[str],
    *,
    packages: bool = False,
) -> ProtectionPlan:
    """Credential files (hidden) and protected paths (read-only) in the mounted roots, and
    other names (hard links) there of HOME's credentials, rc files, git config, agent
    settings and the policy files; ScanBudgetExceeded when the roots are too big to check.
    ``packages``: the roots' package environments stay read-only too (``workspace-code``)."""
    return plan_protection(
        writable,
        readonly,
        is_credential=lambda path: policy.hardline.credentials.first_match(path) is not None,
        skip=config.scan_skip,
        max_entries=config.scan_max_entries,
        home=policy.home,
        kept=home_kept(
            policy.home,
            (os.path.abspath(s) for s in policy.sources),
            (os.path.join(policy.home, name) for name in HOME_CREDENTIALS),
            policy.path_checks.credentials,
        ),
        packages=packages,
    )


def limits_of(config: ExecConfig) -> Limits:
    return Limits(
        max_memory_mb=config.max_memory_mb,
        max_cpu_seconds=config.max_cpu_seconds,
        max_processes=config.max_processes,
        max_resident_mb=config.max_resident_mb,
        tmp_size_mb=config.tmp_size_mb,
        seccomp=config.seccomp,
    )


def child_environment(config: ExecConfig, environ: Mapping[str, str]) -> dict[str, str]:
    """Only the allow-listed variables, and never Bastion's own settings."""
    return {
        name: environ[name]
        for name in config.env_allow
        if name in environ and not name.startswith("BASTION_")
    }


def build_spec(
    policy: Policy,
    config: ExecConfig,
    argv: Sequence[str],
    *,
    cwd: str,
    network: bool = False,
    timeout: float | None = None,
    stdin: bytes | None = None,
    secrets: Mapping[str, str] | None = None,
    extra_writable: Sequence[str] = (),
    extra_readonly: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    profile: Profile | None = None,
) -> RunSpec:
    """One RunSpec under ``policy``; ``timeout`` may only shorten the configured one. With a
    ``profile``, the file system and network are the profile's (never more than the policy's).
    Raises ScanBudgetExceeded when the roots are too big to check for credentials."""
    writes = profile is None or profile.writable
    writable, readonly, hidden = sandbox_roots(policy, writes=writes)
    if profile is not None and profile.writes:  # approved by a person, scanned like the rest
        writable = (*writable, *approved_writes(policy, profile.writes))
    packages = profile is not None and profile.packages_readonly
    plan = protection(policy, config, writable, readonly, packages=packages)
    env = child_environment(config, os.environ if environ is None else environ)
    env[CREDENTIALS_ENV] = policy.credentials_dir
    hosts = profile.hosts if profile is not None else ()
    return RunSpec(
        argv=tuple(argv),
        cwd=cwd,
        env=env,
        stdin=stdin,
        timeout=min(timeout, config.timeout) if timeout else config.timeout,
        max_output_bytes=config.max_output_bytes,
        network=network and profile is None,
        writable_roots=(*writable, *extra_writable, *plan.pinned),
        readonly_roots=(*readonly, *extra_readonly, *plan.readonly),
        hidden_paths=(*hidden, *plan.hidden),
        limits=limits_of(config),
        secrets=dict(secrets or {}),
        hosts=hosts,
        swept=plan.swept,
        links=plan.links,
        quarantine=os.path.join(policy.state_dir, "quarantine"),
        profile=profile.filesystem.value if profile is not None else "",
    )
