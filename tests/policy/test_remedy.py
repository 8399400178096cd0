"""Every denial says how to allow it, or plainly that it cannot be: read from the reasons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.call.effects import Effect
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason, deny_for_error
from bastion.policy.remedy import how_to_allow, told

ASK, DENY = Decision.ASK, Decision.DENY
POLICY = "/p/.bastion/policy.toml:12"
NOBODY = Reason(DENY, "approval.non_interactive_default", "built-in", "", "nobody can be asked here")
ASK_A_PERSON = "To allow it, run it where a person can be asked (an interactive session, or `bastion request`) and approve it"
GOLDEN = json.loads((Path(__file__).parent / "golden" / "evaluations.json").read_text())


def _deny(
    *reasons: Reason, effects: tuple[Effect, ...] = (Effect.WRITE,), marker: str | None = None
) -> Evaluation:
    return Evaluation(DENY, reasons, effects, marker=marker)


CASES = [
    (
        _deny(Reason(DENY, "hardline.system", "built-in", "/etc", "/etc/passwd is a system location")),
        "This cannot be allowed: the hardline check hardline.system refuses it whatever a policy, "
        "a grant or a person says.",
    ),
    (
        _deny(Reason(DENY, "rule[3]", POLICY, "git push --force", "no force pushes")),
        f"To allow it, change or remove rule[3] in {POLICY}: a person cannot override a deny rule.",
    ),
    (
        _deny(Reason(DENY, "commands.deny", POLICY, "curl", "curl is in deny")),
        f"To allow it, remove the entry matching 'curl' from [commands] deny in {POLICY}.",
    ),
    (
        _deny(Reason(DENY, "mode.read-only", POLICY, "write", "write is not allowed in read-only mode")),
        f"To allow it, choose a mode that permits it (mode, set in {POLICY}).",
    ),
    (
        _deny(Reason(DENY, "ceiling.filesystem", POLICY, "/x", "the ceiling allows writes only inside")),
        f"To allow it, raise the [ceiling] set in {POLICY}.",
    ),
    (
        _deny(Reason(DENY, "limits.calls_per_minute", POLICY, "61", "over 60 calls a minute")),
        f"To allow it, wait until the limit frees up, or raise [limits] calls_per_minute in {POLICY}.",
    ),
    (
        _deny(Reason(DENY, "breaker.repeat-failure", "built-in", "x", "failed 3 times")),
        "To allow it, wait for the breaker's cooldown, or change the call (it kept failing).",
    ),
    (
        _deny(Reason(DENY, "approval.person", "request r1", "", "denied by a person: no")),
        "A person denied it: it runs only if a person approves it when it is asked again.",
    ),
    (
        _deny(Reason(DENY, "approval.timeout", "request r1", "", "nobody answered in 5:00")),
        "Nobody answered in time: ask again, and approve it on the approvals page or with "
        "`bastion approvals approve` (`bastion approvals list` shows its id).",
    ),
    (
        _deny(Reason(DENY, "approval.callback", "request r1", "", "denied by your code")),
        "Your own code (on_permission) denied it: it decides whether the call is allowed.",
    ),
    (
        _deny(Reason(DENY, "approval.interactive_default", POLICY, "", "the approval default denies it")),
        f"To allow it, add a [[rule]] that allows it, or change the [approval] default ({POLICY}).",
    ),
    (  # asked, but nobody could answer: a person can, and a grant they make covers it here
        _deny(
            Reason(ASK, "paths.outside-roots", POLICY, "/srv/x", "/srv/x is outside every writable root"),
            NOBODY,
        ),
        f"{ASK_A_PERSON}: once, or always (a standing grant then covers it here too); or add it to "
        "[paths] allow_write or allow_read in your own policy file (a project's file cannot widen "
        "paths), or run the agent from a folder that holds it.",
    ),
    (
        _deny(Reason(ASK, "rule[1]", POLICY, "make deploy", "deploys need a person"), NOBODY),
        f"{ASK_A_PERSON}: once, or always (a standing grant then covers it here too); or change "
        f"rule[1] in {POLICY} to allow it.",
    ),
    (  # a hardline class: approved once by a person at most, never always
        _deny(
            Reason(ASK, "hardline.destructive", "built-in", "rm -r", "rm -r deletes recursively"),
            NOBODY,
            effects=(Effect.WRITE, Effect.DESTRUCTIVE),
        ),
        f"{ASK_A_PERSON} once: it is in a hardline class (destructive) that no standing grant may ever cover.",
    ),
    (
        deny_for_error(OSError("disk full"), rule="state.unavailable", transient=True),
        "It cannot be allowed until Bastion can decide safely again: try it again later.",
    ),
    (
        deny_for_error(ValueError("bad input"), rule="call.invalid"),
        "It cannot be allowed as it is: Bastion could not decide it safely (see why above).",
    ),
    (
        _deny(
            Reason(DENY, "policy.invalid", "built-in", "", "the policy failed to load"), marker=MARKER_DENIED
        ),
        "It cannot be allowed until the policy loads again: fix it (`bastion policy test` checks it).",
    ),
    (
        _deny(Reason(DENY, "mcp.pin-changed", "mcp pins", "read_file", "changed since it was trusted")),
        "To allow it, review the server's changed tools and trust them (`bastion mcp trust SERVER`).",
    ),
    (
        _deny(
            Reason(DENY, "network.scheme", "built-in", "ftp://x", "only http and https"), marker=MARKER_DENIED
        ),
        "This cannot be allowed as written: the built-in check network.scheme refuses it and no "
        "rule overrides it; change the call.",
    ),
]


@pytest.mark.parametrize(("evaluation", "sentence"), CASES, ids=[c[0].reasons[0].rule for c in CASES])
def test_a_denial_says_how_to_allow_it_or_that_it_cannot_be(evaluation: Evaluation, sentence: str) -> None:
    assert how_to_allow(evaluation) == sentence
    assert told(evaluation) == f"{evaluation.message.rstrip('. ')}. {sentence}"


def test_a_hardline_anywhere_among_the_denying_reasons_means_it_cannot_be_allowed() -> None:
    evaluation = _deny(
        Reason(DENY, "paths.deny_write", POLICY, "/etc/x", "in deny_write"),
        Reason(DENY, "hardline.system", "built-in", "/etc", "a system location"),
    )
    assert str(how_to_allow(evaluation)).startswith(
        "This cannot be allowed: the hardline check hardline.system"
    )


def test_only_a_denial_gets_a_remedy() -> None:
    allow = Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, "rule[2]", POLICY, "git", "fine"),))
    ask = Evaluation(ASK, (Reason(ASK, "rule[1]", POLICY, "git push", "a person decides"),))
    assert [how_to_allow(allow), how_to_allow(ask), told(ask)] == [None, None, "a person decides"]


@pytest.mark.parametrize("case", [c for c in GOLDEN if c["evaluation"]["decision"] == "deny"], ids=str)
def test_every_golden_denial_ends_with_how_to_allow_it_or_that_it_cannot_be(case: dict[str, object]) -> None:
    evaluation = Evaluation.from_json(case["evaluation"])
    remedy = str(how_to_allow(evaluation))
    assert remedy.startswith(("To allow it, ", "This cannot be allowed", "It cannot be allowed")), remedy
    assert told(evaluation).endswith(remedy)
