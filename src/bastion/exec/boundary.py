"""From a Policy and the ``[exec]`` config to a RunSpec: roots, hidden paths, environment."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from bastion.exec.config import ExecConfig
from bastion.exec.runner import Limits, RunSpec
from bastion.policy.compiled import Policy

#: Credential locations under HOME, hidden whenever a root would otherwise expose them.
HOME_CREDENTIALS: tuple[str, ...] = (
    ".ssh", ".aws", ".gnupg", ".kube", ".azure", ".config/gcloud", ".docker", ".netrc",
    ".pypirc", ".npmrc", ".git-credentials", ".local/share/keyrings", ".bastion",
)  # fmt: skip


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def writes_allowed(policy: Policy) -> bool:
    ceiling = policy.ceiling
    return policy.mode != "read-only" and not (ceiling and ceiling.filesystem == "read_only")


def sandbox_roots(policy: Policy) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(writable, read-only, hidden) paths for a child under this policy.

    Read-only mode (or a read-only ceiling) binds the workspace read-only. Policy files
    inside a writable root are overlaid read-only: an agent must not edit its own rules.
    """
    writable = tuple(policy.write_roots) if writes_allowed(policy) else ()
    readonly = [r for r in policy.read_roots if r not in writable]
    for source in policy.sources:
        path = os.path.abspath(source)
        if os.path.exists(path) and any(_inside(path, r) for r in writable):
            readonly.append(path)
    hidden = [policy.credentials_dir, policy.state_dir]
    hidden += [os.path.join(policy.home, name) for name in HOME_CREDENTIALS]
    hidden += credential_files(policy, (*writable, *readonly))
    return writable, tuple(dict.fromkeys(readonly)), tuple(dict.fromkeys(hidden))


#: Folders a scan for credential files skips: large, and not where keys are kept.
SKIPPED_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache",
                          ".ruff_cache", ".pytest_cache", ".tox", "target", "dist", "build"})


def credential_files(
    policy: Policy, roots: Sequence[str], *, max_depth: int = 6, max_entries: int = 20_000
) -> list[str]:
    """Credential files inside the mounted roots (``.env``, ``*.pem``, ``id_rsa``…): the gate
    refuses to read them, and the sandbox hides them too, so a script the agent runs cannot
    read them either. Bounded (depth, entries): a huge tree is only partly scanned."""
    found: list[str] = []
    seen = 0
    stack = [(root, 0) for root in roots]
    while stack and seen < max_entries:
        folder, depth = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if policy.hardline.credentials.first_match(entry.path) is not None:
                found.append(entry.path)
                continue
            if depth < max_depth and entry.name not in SKIPPED_DIRS and entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, depth + 1))
    return found


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
) -> RunSpec:
    """One RunSpec under ``policy``; ``timeout`` may only shorten the configured one."""
    writable, readonly, hidden = sandbox_roots(policy)
    env = child_environment(config, os.environ if environ is None else environ)
    return RunSpec(
        argv=tuple(argv),
        cwd=cwd,
        env=env,
        stdin=stdin,
        timeout=min(timeout, config.timeout) if timeout else config.timeout,
        max_output_bytes=config.max_output_bytes,
        network=network,
        writable_roots=(*writable, *extra_writable),
        readonly_roots=(*readonly, *extra_readonly),
        hidden_paths=hidden,
        limits=Limits(max_memory_mb=config.max_memory_mb, max_cpu_seconds=config.max_cpu_seconds),
        secrets=dict(secrets or {}),
    )
