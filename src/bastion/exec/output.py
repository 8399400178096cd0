"""Captured output: held up to a cap, the cut marked, secrets masked before it leaves."""

from __future__ import annotations

from collections.abc import Mapping

#: Appended where output was cut; ``{cap}`` and ``{dropped}`` are byte counts.
CUT_MARKER = "\n[bastion: output cut at {cap} bytes; {dropped} more bytes not shown]\n"


def mask_token(name: str) -> str:
    return f"[secret:{name}]"


def mask_bytes(data: bytes, secrets: Mapping[str, str]) -> bytes:
    """Replace every secret value (longest first) with ``[secret:NAME]``."""
    for name, value in sorted(secrets.items(), key=lambda item: -len(item[1])):
        if value:
            data = data.replace(value.encode("utf-8"), mask_token(name).encode("ascii"))
    return data


def mask_text(text: str, secrets: Mapping[str, str]) -> str:
    for name, value in sorted(secrets.items(), key=lambda item: -len(item[1])):
        if value:
            text = text.replace(value, mask_token(name))
    return text


class CappedBuffer:
    """Keeps the first ``cap`` bytes of a stream (plus a margin so a secret that starts
    before the cut is still whole when it is masked) and counts the rest."""

    def __init__(self, cap: int, *, margin: int = 0) -> None:
        if cap <= 0:
            raise ValueError("cap must be positive")
        self.cap = cap
        self._limit = cap + max(0, margin)
        self._data = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self._limit - len(self._data)
        if room > 0:
            self._data += chunk[:room]

    @property
    def truncated(self) -> bool:
        return self.total > self.cap

    def text(self, secrets: Mapping[str, str]) -> str:
        """The held output as text: masked first, then cut at the cap and marked."""
        data = mask_bytes(bytes(self._data), secrets)
        if not self.truncated:
            return data.decode("utf-8", errors="replace")
        kept = data[: self.cap].decode("utf-8", errors="replace")
        return kept + CUT_MARKER.format(cap=self.cap, dropped=self.total - self.cap)


def secret_margin(secrets: Mapping[str, str]) -> int:
    return max((len(v.encode("utf-8")) for v in secrets.values()), default=0)
