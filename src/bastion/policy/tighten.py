"""How an untrusted layer may only tighten: the warning for what it may not change, and
the ceiling, which a later file only ever lowers.

A project file arrives with a cloned repository, so until it is trusted its loosenings are
dropped and listed (``doctor`` and ``explain`` show them). Each settings section applies
the same rule in its own package (``merge_exec``, ``merge_limits``, …), with :func:`ignored`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bastion.policy.ceiling import Ceiling

if TYPE_CHECKING:
    from bastion.policy.layer import Layer
    from bastion.policy.model import CeilingSection


def ignored(layer: Layer, what: str) -> str:
    """The warning for a loosening an untrusted layer wrote, which does not apply."""
    return (
        f"{layer.path}: untrusted project policy may only tighten; ignored {what} "
        f"(run 'bastion policy trust {layer.path}' to accept it)"
    )


def merge_ceiling(current: Ceiling | None, new: CeilingSection) -> Ceiling:
    written = Ceiling.of(new.approval, new.filesystem, new.network)
    # A later file can only lower a ceiling set earlier: never raised by a rule or a layer.
    return written if current is None else current.meet(written)
