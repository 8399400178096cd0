"""exec_secrets: named secrets from the credentials dir, injected into one child only.

A secret is the file ``<credentials_dir>/<NAME>``; its value (one trailing newline
dropped) arrives in the child as the environment variable ``NAME``. The value never goes
into arguments, the ledger, results or error messages: output containing it is masked.
The credentials dir is never mounted into the sandbox, and Bastion refuses to start when
it lies inside a readable root (``check_credentials_placement``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping

from bastion.exec.runner import ExecError
from bastion.exec.settings import SECRET_NAME
from bastion.policy.compiled import Policy


class SecretError(ExecError):
    """A secret cannot be used. The message names the secret, never its value."""


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def check_credentials_placement(policy: Policy) -> str | None:
    """Error text when the credentials dir overlaps a readable root, else None."""
    creds = os.path.realpath(policy.credentials_dir)
    for root in policy.read_roots:
        real = os.path.realpath(root)
        if _inside(creds, real) or _inside(real, creds):
            return (
                f"the credentials dir {policy.credentials_dir} lies inside the readable root "
                f"{root}: an agent could read every secret in it. Move it out (policy key "
                f"'credentials_dir') or narrow the roots; Bastion refuses to start until then."
            )
    return None


def ensure_credentials_dir(path: str) -> str:
    """Create the dir 0700 if missing; refuse one that others can read or write."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    info = os.stat(path)
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise SecretError(
            f"credentials dir {path} is accessible to other users "
            f"(mode {stat.S_IMODE(info.st_mode):o}); run: chmod 700 {path}"
        )
    return path


class SecretStore:
    """Reads named secrets on demand; only names in ``allowed`` may be read."""

    def __init__(self, credentials_dir: str, allowed: Iterable[str]) -> None:
        self.credentials_dir = credentials_dir
        self.allowed = frozenset(allowed)

    def __repr__(self) -> str:
        return f"SecretStore({self.credentials_dir!r}, allowed={sorted(self.allowed)!r})"

    def load(self, names: Iterable[str]) -> Mapping[str, str]:
        """name → value for one child. Raises SecretError naming the secret on failure."""
        wanted = list(dict.fromkeys(names))
        if not wanted:
            return {}
        for name in wanted:
            if not SECRET_NAME.fullmatch(name):
                raise SecretError(f"{name!r} is not a valid secret name")
            if name not in self.allowed:
                raise SecretError(f"secret {name!r} is not listed in [exec] secrets")
        ensure_credentials_dir(self.credentials_dir)
        values = {}
        for name in wanted:
            path = os.path.join(self.credentials_dir, name)
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
                with os.fdopen(fd, "rb") as handle:
                    raw = handle.read(65537)
            except OSError as exc:
                raise SecretError(f"secret {name!r} cannot be read: {exc.strerror}") from None
            if len(raw) > 65536:
                raise SecretError(f"secret {name!r} is larger than 64 KiB")
            try:
                value = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise SecretError(f"secret {name!r} is not UTF-8 text") from None
            value = value[:-1] if value.endswith("\n") else value
            if not value or "\x00" in value:
                raise SecretError(f"secret {name!r} is empty or contains a NUL byte")
            values[name] = value
        return values
