"""Second opinion, escalate only: a checker asked about calls the policy would allow.

A checker (an external command, an HTTP endpoint, an LLM behind either: the user's choice)
can turn an ALLOW into ASK or DENY, never the reverse; its error, timeout or malformed
answer leaves the decision as it was, with a note. The Gatekeeper (bastion.runtime)
consults it after the gate decides; the core never does I/O for it.

The names load on first use, so importing one module of the package does not import them
all back (no import cycle through this ``__init__``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.opinion.checkers import Checker, CheckerError, CommandChecker, HttpChecker
    from bastion.opinion.consult import SecondOpinion, opinion_from
    from bastion.opinion.fake import StaticChecker
    from bastion.opinion.verdict import MalformedVerdict, Verdict, escalate, parse_verdict

_WHERE = {
    "Checker": "bastion.opinion.checkers",
    "CheckerError": "bastion.opinion.checkers",
    "CommandChecker": "bastion.opinion.checkers",
    "HttpChecker": "bastion.opinion.checkers",
    "MalformedVerdict": "bastion.opinion.verdict",
    "SecondOpinion": "bastion.opinion.consult",
    "StaticChecker": "bastion.opinion.fake",
    "Verdict": "bastion.opinion.verdict",
    "escalate": "bastion.opinion.verdict",
    "opinion_from": "bastion.opinion.consult",
    "parse_verdict": "bastion.opinion.verdict",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.opinion' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Checker",
    "CheckerError",
    "CommandChecker",
    "HttpChecker",
    "MalformedVerdict",
    "SecondOpinion",
    "StaticChecker",
    "Verdict",
    "escalate",
    "opinion_from",
    "parse_verdict",
]
