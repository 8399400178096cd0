"""A compiled-policy cache, so a hook does not import pydantic and re-validate TOML per call.

The key is the SHA-256 of everything the compiled Policy depends on: the
``PolicySources`` digest (each watched file's path, mtime, size and content hash, or its
absence, the trust store, the cwd, the state dir, the explicit file), HOME, the interpreter version and a
stamp of Bastion's own policy and shell sources (a code change changes the pickled
classes). ``<state_dir>/cache/policy-<key>.pickle`` is written atomically with mode 0600.

A cache file is only read when it is a regular file owned by this user and not writable by
group or others; anything unreadable, foreign or corrupt is a miss, and a miss loads the
policy the slow way (which raises PolicyError for a broken file — never an allow).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import stat
import sys
from collections.abc import Mapping

from bastion.configuration import Configuration
from bastion.policy.sources import PolicySources, state_dir_from

CACHE_DIR = "cache"
_FORMAT = b"bastion-policy-cache/1"
_SOURCE_DIRS = ("policy", "shell", "shell/programs", "call")
#: The modules of the settings pickled beside the Policy (bastion.configuration).
_SETTINGS_FILES = (
    "configuration.py", "exec/settings.py", "exec/profile.py", "approval/settings.py",
    "audit/settings.py", "state/settings.py", "opinion/settings.py",
    "adapters/hooks/settings.py", "adapters/http/settings.py",
)  # fmt: skip


def source_stamp() -> bytes:
    """Each policy, shell and settings source file's name, mtime and size."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parts = []
    for folder in _SOURCE_DIRS:
        try:
            entries = sorted(os.scandir(os.path.join(root, folder)), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(".py"):
                info = entry.stat()
                parts.append(f"{folder}/{entry.name}:{info.st_mtime_ns}:{info.st_size}")
    for name in _SETTINGS_FILES:
        try:
            info = os.stat(os.path.join(root, name))
        except OSError:
            continue
        parts.append(f"{name}:{info.st_mtime_ns}:{info.st_size}")
    return "\n".join(parts).encode()


def cache_key(policy_path: str | None, *, cwd: str, env: Mapping[str, str]) -> str:
    return sources_key(PolicySources.find(policy_path, cwd=cwd, env=env), env)


def sources_key(sources: PolicySources, env: Mapping[str, str], *, stamp: bytes | None = None) -> str:
    """Everything the compiled Policy of ``sources`` depends on, hashed. ``stamp``: the
    ``source_stamp`` of the code that builds the policy, when the caller holds it (the
    daemon caches only what its own code built: it takes the stamp once, not ~100
    ``stat``s per call); None reads the files now."""
    digest = hashlib.sha256(_FORMAT)
    for value in (
        sys.version,
        env.get("HOME", ""),
        env.get("BASTION_SHADOW", ""),  # --shadow: the same files compile to another policy
        sources.digest(),
    ):
        digest.update(b"\0" + value.encode("utf-8", "surrogateescape"))
    digest.update(b"\0" + (source_stamp() if stamp is None else stamp))
    return digest.hexdigest()


def cache_path(key: str, env: Mapping[str, str]) -> str:
    return os.path.join(state_dir_from(env), CACHE_DIR, f"policy-{key}.pickle")


def _read(path: str) -> Configuration | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_uid != os.geteuid()
            or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        ):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read()
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        value = pickle.loads(data)
    except Exception:  # a corrupt cache is a miss, never an allow
        return None
    return value if isinstance(value, Configuration) else None


def _write(path: str, policy: Configuration) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(pickle.dumps(policy, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _prune(folder, keep=path)


def _prune(folder: str, *, keep: str, limit: int = 32) -> None:
    """Keep the newest ``limit`` cache files: every policy edit writes a new one."""
    with contextlib.suppress(OSError):
        entries = [e for e in os.scandir(folder) if e.name.startswith("policy-")]
        if len(entries) <= limit:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for entry in entries[limit:]:
            if entry.path != keep:
                os.unlink(entry.path)


def load_cached_policy(
    policy_path: str | None = None, *, cwd: str, env: Mapping[str, str] | None = None
) -> Configuration:
    """The configuration that applies, from the cache when it is fresh; raises PolicyError."""
    env = os.environ if env is None else env
    return load_cached_sources(PolicySources.find(policy_path, cwd=cwd, env=env), env)


def load_cached_sources(sources: PolicySources, env: Mapping[str, str]) -> Configuration:
    """The configuration of ``sources``, from the cache when it is fresh; raises PolicyError."""
    path = cache_path(sources_key(sources, env), env)
    cached = _read(path)
    if cached is not None:
        return cached
    from bastion.configuration import load_sources

    policy = load_sources(sources, env)
    with contextlib.suppress(OSError, pickle.PicklingError):  # an unwritable cache costs speed only
        _write(path, policy)
    return policy
