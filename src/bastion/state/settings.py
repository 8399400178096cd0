"""``state_url``: where the shared state lives (bastion.state.factory), and
:func:`merge_state`, which folds the layers' values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.policy.tighten import ignored

if TYPE_CHECKING:
    from bastion.policy.layer import Layer


@dataclass(frozen=True, slots=True)
class StateSettings:
    #: ``postgresql://…`` for shared state (``BASTION_STATE_URL`` overrides); None: SQLite.
    url: str | None = None


def merge_state(layers: Iterable[Layer]) -> tuple[StateSettings, tuple[str, ...]]:
    """The ``state_url`` of the layers in order: a trusted layer only. A cloned repo must
    not point approvals (and the ledger) at a database its author controls."""
    current, warnings = StateSettings(), []
    for layer in layers:
        if layer.spec.state_url is None:
            continue
        if layer.trusted:
            current = StateSettings(url=layer.spec.state_url)
        else:
            warnings.append(ignored(layer, "state_url"))
    return current, tuple(warnings)
