"""The policy's small vocabularies as enums: the mode, and what a rule does.

String-valued (``StrEnum``), so the words written in a policy file, printed by ``explain``
and carried in rule ids (``mode.read-only``) stay exactly the same; code compares members.
"""

from __future__ import annotations

from enum import StrEnum

from bastion.policy.decision import Decision


class Mode(StrEnum):
    """From strictest to loosest: an untrusted layer may only move left."""

    READ_ONLY = "read-only"
    #: Reads and pure reader shell commands as in ``workspace``; every write asks (seed 003).
    ASK_BEFORE_EDIT = "ask-before-edit"
    WORKSPACE = "workspace"
    FULL_ACCESS = "full-access"

    @property
    def rank(self) -> int:
        return _MODE_RANK[self]


_MODE_RANK = {mode: index for index, mode in enumerate(Mode)}


class RuleAction(StrEnum):
    """A ``[[rule]]``'s ``action``, parsed once when the policy is loaded."""

    ALLOW = "allow"
    DENY = "deny"
    ASK = "ask"
    #: Allow when the classifier finds a pure reader, otherwise ask (shell rules only).
    CLASSIFY = "classify"

    @property
    def loosens(self) -> bool:
        """Does it ever allow? An untrusted layer may not add such a rule."""
        return self in (RuleAction.ALLOW, RuleAction.CLASSIFY)

    @property
    def decision(self) -> Decision:
        """The decision it gives when it matches. ``classify`` has none of its own (the shell
        decider turns it into allow or ask): asked anyway, it raises, and the engine denies."""
        return Decision.parse(self.value)
