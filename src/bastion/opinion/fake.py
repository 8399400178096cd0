"""A checker for tests: a fixed verdict (or a fixed failure), and every request it saw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bastion.opinion.checkers import CheckerError
from bastion.opinion.verdict import Verdict


class StaticChecker:
    def __init__(
        self, verdict: Verdict | None = None, *, error: str | None = None, name: str = "static"
    ) -> None:
        self.verdict = verdict
        self.error = error
        self.name = name
        self.seen: list[Mapping[str, Any]] = []

    def check(self, request: Mapping[str, Any], timeout: float) -> Verdict:
        self.seen.append(request)
        if self.error is not None or self.verdict is None:
            raise CheckerError(self.error or "no verdict configured")
        return self.verdict
