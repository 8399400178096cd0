"""The keyed hash of a call's arguments: equal calls match, the arguments stay unreadable.

The key is 32 random bytes created once in the state dir (``ledger.key``, mode 0600).
A plain hash of low-entropy arguments (a short password) could be brute-forced from the
ledger; an HMAC cannot without the key.
"""

from __future__ import annotations

import json
import os
import secrets
import time

from bastion.audit.fast import KeyedSha256
from bastion.call.model import ToolCall, thaw
from bastion.errors import StoreError

KEY_FILE = "ledger.key"
KEY_BYTES = 32
_RECENT = 256


#: One encoder for every call (``json.dumps`` with options builds a new one per call).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
_ENCODE = _ENCODER.encode


def canonical_call(call: ToolCall) -> bytes:
    """The exact normalised call: family, arguments and working directory."""
    data = {"tool": call.tool, "args": thaw(call.args), "cwd": call.cwd}
    return _ENCODE(data).encode("utf-8")


class ArgumentHasher:
    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("an argument-hash key needs at least 16 bytes")
        self._key = key
        self._mac = KeyedSha256(key)
        # One request digests its call three to five times (the repeat guard, the grant, the
        # ledger event, the guard's bookkeeping): the last calls' digests, by identity. A
        # ToolCall is frozen (its arguments too), and the entry holds the call, so its id is
        # not reused while the entry lives.
        self._recent: dict[int, tuple[ToolCall, str]] = {}

    def __repr__(self) -> str:
        return "ArgumentHasher(key=***)"

    def digest(self, call: ToolCall) -> str:
        seen = self._recent.get(id(call))
        if seen is not None and seen[0] is call:
            return seen[1]
        value = self._mac.hexdigest(canonical_call(call))
        if len(self._recent) >= _RECENT:
            self._recent.clear()
        self._recent[id(call)] = (call, value)
        return value


def load_or_create_key(state_dir: str) -> bytes:
    """Read ``<state_dir>/ledger.key``, creating it (0600, exclusively) on first use."""
    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    path = os.path.join(state_dir, KEY_FILE)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as exc:
        raise StoreError(f"cannot create {path}: {exc.strerror or exc}") from exc
    else:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(KEY_BYTES))
            handle.flush()
            os.fsync(handle.fileno())
        return _read_key(path)
    return _read_key(path)


def _read_key(path: str) -> bytes:
    for _ in range(100):  # another process may be between O_EXCL and its write
        try:
            with open(path, "rb") as handle:
                key = handle.read()
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
        if len(key) == KEY_BYTES:
            return key
        time.sleep(0.01)
    raise StoreError(f"{path} is not a {KEY_BYTES}-byte key; move it away and retry")
