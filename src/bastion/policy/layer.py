"""One policy file as parsed, with where it came from and whether it is trusted."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.policy.locate import KeyLocator

if TYPE_CHECKING:
    from bastion.policy.model import PolicyFile


@dataclass(frozen=True, slots=True)
class Layer:
    """One policy file as parsed (``path`` None for the built-in defaults)."""

    path: str | None
    spec: PolicyFile
    trusted: bool
    locator: KeyLocator | None = None
    base_dir: str | None = None  # where relative entries anchor when there is no file

    @property
    def base(self) -> str:
        """Relative roots and globs are anchored at the file's folder; for a project file
        ``PROJECT/.bastion/policy.toml`` that is the project folder."""
        if self.base_dir is not None or self.path is None:
            return self.base_dir or os.getcwd()
        folder = os.path.dirname(os.path.abspath(self.path))
        return os.path.dirname(folder) if os.path.basename(folder) == ".bastion" else folder

    @property
    def name(self) -> str:
        if self.path is None:
            return "<policy>" if self.locator else "built-in"
        return self.path

    def where(self, *loc: str | int) -> str:
        if self.locator is None:
            return self.name
        line = self.locator.line_of(loc)
        return f"{self.name}:{line}" if line else self.name
