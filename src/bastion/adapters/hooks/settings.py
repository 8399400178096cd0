"""``ask_via``: who asks the person when a hook's call needs an answer, and
:func:`merge_hooks`, which folds the layers' values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from bastion.policy.tighten import ignored

if TYPE_CHECKING:
    from bastion.policy.layer import Layer


class AskVia(StrEnum):
    AGENT = "agent"  # the hook hands an ASK to the agent's own prompt
    BASTION = "bastion"  # the hook parks it until a person answers through Bastion


@dataclass(frozen=True, slots=True)
class HookSettings:
    ask_via: AskVia = AskVia.AGENT

    def __post_init__(self) -> None:
        object.__setattr__(self, "ask_via", AskVia(self.ask_via))


def merge_hooks(layers: Iterable[Layer]) -> tuple[HookSettings, tuple[str, ...]]:
    """The ``ask_via`` of the layers in order: only a trusted layer may change it."""
    current, warnings = HookSettings(), []
    for layer in layers:
        written = layer.spec.ask_via
        if written is None:
            continue
        if layer.trusted:
            current = HookSettings(ask_via=AskVia(written))
        elif written != current.ask_via:
            warnings.append(ignored(layer, f"ask_via = {written!r}"))
    return current, tuple(warnings)
