"""Second opinion, escalate only: a checker asked about calls the policy would allow.

A checker (an external command, an HTTP endpoint, an LLM behind either: the user's choice)
can turn an ALLOW into ASK or DENY, never the reverse; its error, timeout or malformed
answer leaves the decision as it was, with a note. The Gatekeeper (bastion.runtime)
consults it after the gate decides; the core never does I/O for it.
"""

from bastion.opinion.checkers import Checker, CheckerError, CommandChecker, HttpChecker
from bastion.opinion.consult import SecondOpinion, opinion_from
from bastion.opinion.fake import StaticChecker
from bastion.opinion.verdict import MalformedVerdict, Verdict, escalate, parse_verdict

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
