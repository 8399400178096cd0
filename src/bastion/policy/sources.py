"""Which files make up the policy, computed in one place.

``PolicySources.find(policy_path, cwd=..., env=...)`` says which files the loader reads
(``--policy FILE`` or ``BASTION_POLICY`` replaces all others; otherwise the user file and the
nearest project file), where a project file would appear, and the trust store. The loader,
the hook's compiled-policy cache and the watcher of every long-running entry point all use
this value, so they can never disagree on what "the policy" is.

Its ``fingerprint()`` (stat of every watched file, absent ones included) tells a watcher that
something changed; its ``digest()`` (content hashes too) keys the hook's cache.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass

TRUST_FILE = "trusted-policies.json"
PROJECT_FILE = os.path.join(".bastion", "policy.toml")

#: One watched file's (path, (mtime_ns, size, inode)), or (path, None) when it is absent.
Fingerprint = tuple[tuple[str, tuple[int, int, int] | None], ...]


def home_of(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def state_dir_from(env: Mapping[str, str]) -> str:
    default = os.path.join(home_of(env), ".local", "state", "bastion")
    return os.path.abspath(os.path.expanduser(env.get("BASTION_STATE_DIR") or default))


def find_project_file(cwd: str) -> str | None:
    """The nearest ``.bastion/policy.toml`` in ``cwd`` or a parent (lexical parents of the
    absolute path). Plain ``os.path``: every watcher runs this for every call."""
    folder = os.path.abspath(cwd)
    while True:
        candidate = os.path.join(folder, PROJECT_FILE)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


@dataclass(frozen=True, slots=True)
class PolicySources:
    """The files the policy for ``cwd`` is built from (absolute paths)."""

    cwd: str
    state_dir: str
    #: ``--policy FILE`` / ``BASTION_POLICY``: when set, the only file read.
    explicit: str | None
    #: ``~/.config/bastion/policy.toml`` (read when it exists; None with ``explicit``).
    user: str | None
    #: The nearest ``.bastion/policy.toml`` in the cwd or its parents, if any.
    project: str | None
    #: Where a project file would appear in the cwd (watched, so creating one is seen).
    project_candidate: str | None
    #: The trust records of project files (None with ``explicit``: no project file is read).
    trust_store: str | None

    @classmethod
    def find(cls, policy_path: str | None = None, *, cwd: str, env: Mapping[str, str]) -> PolicySources:
        cwd = os.path.abspath(cwd)
        state_dir = state_dir_from(env)
        explicit = policy_path or env.get("BASTION_POLICY")
        if explicit:
            return cls(cwd, state_dir, os.path.abspath(explicit), None, None, None, None)
        user = os.path.join(home_of(env), ".config", "bastion", "policy.toml")
        project = find_project_file(cwd)
        if project is not None and os.path.abspath(project) == os.path.abspath(user):
            project = None  # the user file is never read twice
        return cls(
            cwd,
            state_dir,
            None,
            user,
            project,
            os.path.join(cwd, PROJECT_FILE),
            os.path.join(state_dir, TRUST_FILE),
        )

    @property
    def files(self) -> tuple[str, ...]:
        """The policy files the loader reads, in its order (those that exist)."""
        if self.explicit:
            return (self.explicit,)
        return tuple(p for p in (self.user, self.project) if p and os.path.isfile(p))

    @property
    def watched(self) -> tuple[str, ...]:
        """Every file whose change (or appearance) can change the policy."""
        candidates = (self.explicit, self.user, self.project_candidate, self.project, self.trust_store)
        return tuple(dict.fromkeys(p for p in candidates if p))

    def fingerprint(self) -> Fingerprint:
        out: list[tuple[str, tuple[int, int, int] | None]] = []
        for path in self.watched:
            try:
                info = os.stat(path)
            except OSError:
                out.append((path, None))
                continue
            out.append((path, (info.st_mtime_ns, info.st_size, info.st_ino)))
        return tuple(out)

    def digest(self) -> str:
        """A SHA-256 over every watched file's path, stat and content (or its absence)."""
        digest = hashlib.sha256(b"bastion-policy-sources/1")
        for value in (self.cwd, self.state_dir, self.explicit or ""):
            digest.update(b"\0" + value.encode("utf-8", "surrogateescape"))
        for path in self.watched:
            digest.update(b"\0" + _file_part(path))
        return digest.hexdigest()

    def changed_since(self, seen: Fingerprint) -> bool:
        return self.fingerprint() != seen


def _file_part(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            digest = hashlib.sha256(handle.read()).hexdigest()
    except FileNotFoundError:
        return f"{path}:absent".encode("utf-8", "surrogateescape")
    except OSError as exc:  # unreadable: the loader will say why; the key still changes
        return f"{path}:error:{exc.errno}".encode("utf-8", "surrogateescape")
    return f"{path}:{info.st_mtime_ns}:{info.st_size}:{digest}".encode("utf-8", "surrogateescape")
