"""The decision value: an ordered enum combined strictest-wins, and the reasons behind it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, cast

from bastion.call.effects import HARDLINE_EFFECTS, Effect
from bastion.policy.containment import Prepared, Profile
from bastion.policy.rule_ids import Origin, origin_of

#: Stable prefix of a permanent refusal by a rule or a hardline built-in.
MARKER_DENIED = "[policy-denied]"
#: Stable prefix of a permanent refusal by the mode, the ceiling or a tier.
MARKER_BLOCKED = "[policy-blocked]"


class Decision(IntEnum):
    """ALLOW < ASK < DENY; combine with ``max`` (strictest wins)."""

    ALLOW = 0
    ASK = 1
    DENY = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Decision:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown decision {text!r}: expected allow, ask or deny") from None

    @property
    def exit_code(self) -> int:
        """Exit code contract of ``bastion check``: 0 allow, 3 ask, 4 deny."""
        return {Decision.ALLOW: 0, Decision.ASK: 3, Decision.DENY: 4}[self]


def strictest(decisions: Iterable[Decision]) -> Decision:
    """Combine decisions; an empty input is a programming error, not an allow."""
    items = list(decisions)
    if not items:
        raise ValueError("strictest() of no decisions")
    return max(items)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a decision was taken: which rule, where it is defined, what it matched.

    ``origin`` says who decided (``rule_ids.Origin``); left out, it is the catalogue's entry
    for ``rule``. It is not part of the JSON: readers take it from the rule id again."""

    decision: Decision
    rule: str
    source: str
    matched: str
    message: str
    origin: Origin = field(default=cast(Origin, None), compare=False)

    def __post_init__(self) -> None:
        if self.origin is None:
            object.__setattr__(self, "origin", origin_of(self.rule))

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "source": self.source,
            "matched": self.matched,
            "message": self.message,
            "decision": self.decision.label,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reason:
        return cls(
            decision=Decision.parse(str(data.get("decision", "deny"))),
            rule=str(data["rule"]),
            source=str(data["source"]),
            matched=str(data["matched"]),
            message=str(data["message"]),
        )


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A decision with the reasons that determined it, the effects found, and a marker.

    ``reasons`` lists the reasons that carry the final decision first; ``trace`` keeps
    every stage's note for ``explain`` (it is not part of the JSON contract).
    """

    decision: Decision
    reasons: tuple[Reason, ...]
    effects: tuple[Effect, ...] = ()
    marker: str | None = None
    trace: tuple[str, ...] = field(default=(), compare=False)
    #: Shadow mode (bastion.policy.shadow): allowed, and what enforcing would have decided.
    shadow: bool = False
    would: Decision | None = None
    #: The sandbox the call runs in (the Gatekeeper's containment stage); None: it runs as
    #: written (denied, not a shell call, or ``[exec] contain`` leaves it uncontained).
    profile: Profile | None = field(default=None, compare=False)
    #: That sandbox, built for this call (an allowed call an agent's hook rewrites): the
    #: agent runs its line instead of the command. None: the adapter says ``sandbox run``.
    prepared: Prepared | None = field(default=None, compare=False)

    @property
    def hardline(self) -> bool:
        """True when a hardline class is involved: such a call can never be granted."""
        return any(e in HARDLINE_EFFECTS for e in self.effects)

    @property
    def message(self) -> str:
        """One line for an agent: marker first, then the leading reason (the most specific
        one), then the other deciding reasons."""
        deciding = [r.message for r in self.reasons if r.decision == self.decision]
        leading = [self.reasons[0].message] if self.reasons else []
        text = "; ".join(dict.fromkeys(leading + deciding))
        return f"{self.marker} {text}" if self.marker else text

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "decision": self.decision.label,
            "reasons": [r.to_json() for r in self.reasons],
            "effects": [e.value for e in self.effects],
            "marker": self.marker,
        }
        if self.shadow:  # only in shadow mode: the enforcing contract is unchanged
            data["shadow"] = True
            data["would"] = (self.would or self.decision).label
        if self.profile is not None:  # only for a contained call: the other answers are unchanged
            data["profile"] = self.profile.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Evaluation:
        return cls(
            decision=Decision.parse(str(data["decision"])),
            reasons=tuple(Reason.from_json(r) for r in data.get("reasons", [])),
            effects=tuple(Effect(e) for e in data.get("effects", [])),
            marker=data.get("marker"),
            shadow=data.get("shadow") is True,
            would=Decision.parse(str(data["would"])) if data.get("would") else None,
            profile=Profile.from_json(data["profile"]) if data.get("profile") else None,
        )


def deny_for_error(
    error: BaseException | str, *, rule: str = "internal-error", transient: bool = False
) -> Evaluation:
    """The fail-closed answer when something prevented a safe decision. ``transient`` (a
    store that is down) carries no permanent-refusal marker: the same call may pass later,
    so it must not trip the repeat guard."""
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return Evaluation(
        decision=Decision.DENY,
        reasons=(Reason(Decision.DENY, rule, "built-in", "", f"cannot decide safely: {text}"),),
        effects=(Effect.UNKNOWN,),
        marker=None if transient else MARKER_DENIED,
    )
