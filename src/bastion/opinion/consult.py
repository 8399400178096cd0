"""When the second opinion is asked, and what its answer does to the Evaluation.

Asked only for a call the policy ALLOWs whose family and effects the ``[second_opinion]``
section selects (``families`` and ``effects``: each, when given, must match). The request
is ``{"call": <the tool call JSON>, "evaluation": <the policy's Evaluation JSON>}``.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from bastion.opinion.checkers import Checker, CheckerError, CommandChecker, HttpChecker
from bastion.opinion.settings import SecondOpinionConfig
from bastion.opinion.verdict import Verdict, escalate, unavailable
from bastion.policy.decision import Decision, Evaluation

if TYPE_CHECKING:
    from bastion.call.model import ToolCall

#: Verdicts kept per SecondOpinion: a hook asks the same call twice (peek, then request).
CACHE_SIZE = 256


class SecondOpinion:
    """One configured checker; safe to share between threads of one Gatekeeper."""

    def __init__(self, config: SecondOpinionConfig, checker: Checker) -> None:
        self.config = config
        self.checker = checker
        self._cache: OrderedDict[str, Verdict] = OrderedDict()
        self._lock = threading.Lock()

    def applies(self, call: ToolCall, evaluation: Evaluation) -> bool:
        if evaluation.decision is not Decision.ALLOW or evaluation.shadow:
            return False
        families, effects = self.config.families, self.config.effects
        return (not families or call.tool in families) and (
            not effects or any(e.value in effects for e in evaluation.effects)
        )

    def review(self, call: ToolCall, evaluation: Evaluation) -> Evaluation:
        """The Evaluation after the second opinion: the same or stricter, never looser."""
        if not self.applies(call, evaluation):
            return evaluation
        where, name = self.config.source, self.checker.name
        request = {"call": call.to_json(), "evaluation": evaluation.to_json()}
        try:
            key = json.dumps(request, sort_keys=True, default=str)
            with self._lock:
                verdict = self._cache.get(key)
            if verdict is None:
                verdict = self.checker.check(request, self.config.timeout)
                self._remember(key, verdict)
        except CheckerError as exc:
            return unavailable(evaluation, str(exc), source=where, checker=name)
        except Exception as exc:  # a checker bug is no verdict either: the decision stands
            return unavailable(evaluation, f"{type(exc).__name__}: {exc}", source=where, checker=name)
        return escalate(evaluation, verdict, source=where, checker=name)

    def _remember(self, key: str, verdict: Verdict) -> None:
        with self._lock:
            self._cache[key] = verdict
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)


def checker_for(config: SecondOpinionConfig) -> Checker:
    if config.command is not None:
        return CommandChecker(config.command)
    if config.url is not None:
        return HttpChecker(config.url)
    raise ValueError("[second_opinion] names neither a command nor a url")


def opinion_from(config: SecondOpinionConfig | None, checker: Checker | None = None) -> SecondOpinion | None:
    """The checker of a ``[second_opinion]`` section, or None when there is none."""
    if config is None:
        return None
    return SecondOpinion(config, checker or checker_for(config))
