"""The leading reason (the first in ``reasons``, the one agents and the approvals page show)
is the most specific one that decided, never the generic approval default when a specific
one exists (issue 15, "Reasons hide the cause")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bastion import ToolCall
from bastion.policy.decision import Decision, Evaluation
from bastion.runtime import would_ask
from tests.conftest import GateFactory

Call = Callable[..., ToolCall]


def lead(evaluation: Evaluation) -> tuple[str, str, str, str | None]:
    first = evaluation.reasons[0]
    return (evaluation.decision.label, first.rule, first.matched, evaluation.marker)


def test_a_non_interactive_bashrc_write_leads_with_the_hardline_rule_not_no_rule_decided(
    make_gate: GateFactory, call: Call, home: Path
) -> None:
    evaluation = make_gate().evaluate(call("write", interactive=False, path=str(home / ".bashrc")))

    assert lead(evaluation) == ("deny", "hardline.agent-config", f"{home}/.bashrc ~ .bashrc", None)
    assert [r.rule for r in evaluation.reasons] == [
        "hardline.agent-config",
        "approval.non_interactive_default",
    ]
    assert evaluation.message == (
        f"{home}/.bashrc controls agent permissions or shell start-up: a person must confirm; "
        "nobody can be asked here, so the call is denied"
    )
    assert "no rule decided" not in evaluation.message


def test_git_push_leads_with_what_the_command_does_instead_of_the_generic_default(
    make_gate: GateFactory, call: Call
) -> None:
    evaluation = make_gate().evaluate(call("shell", interactive=False, command="git push"))

    assert lead(evaluation) == ("deny", "shell.not-a-reader", "git push", None)
    assert evaluation.reasons[0].message == (
        "'git push' is not a recognised reader (effects: network, write): no rule allows it"
    )


def test_a_fetch_of_a_host_not_in_allow_hosts_leads_with_that_host(
    make_gate: GateFactory, call: Call
) -> None:
    gate = make_gate('[network]\nallow_hosts = ["pypi.org"]', hosts={"example.com": ["93.184.216.34"]})

    asked = gate.evaluate(call("fetch", url="https://example.com/x"))
    refused = gate.evaluate(call("fetch", interactive=False, url="https://example.com/x"))

    assert lead(asked) == ("ask", "network.unlisted", "example.com", None)
    assert lead(refused) == ("deny", "network.unlisted", "example.com", None)
    assert refused.message.startswith("example.com is not in [network] allow_hosts; ")


def test_a_shell_host_not_in_allow_hosts_is_named_in_the_leading_reason(
    make_gate: GateFactory, call: Call
) -> None:
    evaluation = make_gate(hosts={"x.example": ["93.184.216.34"]}).evaluate(
        call("shell", command="curl https://x.example/i")
    )

    assert lead(evaluation) == ("ask", "network.unlisted", "x.example", None)


def test_a_write_outside_the_workspace_leads_with_the_path_it_is_outside_of(
    make_gate: GateFactory, call: Call
) -> None:
    evaluation = make_gate().evaluate(call("write", interactive=False, path="/opt/elsewhere"))

    assert lead(evaluation) == ("deny", "paths.outside-roots", "/opt/elsewhere", None)
    assert evaluation.reasons[0].message == "/opt/elsewhere is outside every writable root"


def test_a_specific_reason_leading_a_default_deny_still_lets_a_grant_answer_it(
    make_gate: GateFactory, call: Call
) -> None:
    evaluation = make_gate().evaluate(call("write", interactive=False, path="/opt/elsewhere"))

    assert (evaluation.decision, evaluation.marker, would_ask(evaluation)) == (Decision.DENY, None, True)


def test_a_call_no_specific_reason_covers_still_says_the_default(make_gate: GateFactory, call: Call) -> None:
    evaluation = make_gate().evaluate(
        call("mcp", interactive=True, server="notes", tool="list", arguments={})
    )

    assert [r.rule for r in evaluation.reasons] == ["mcp.no-rule", "approval.interactive_default"]
    assert evaluation.message == "no rule allows the MCP tool notes/list; a person decides"


def test_a_hardline_deny_still_leads_over_everything_else(
    make_gate: GateFactory, call: Call, home: Path
) -> None:
    evaluation = make_gate().evaluate(call("read", interactive=False, path=str(home / ".ssh" / "id_rsa")))

    assert (evaluation.decision, evaluation.reasons[0].rule, evaluation.marker) == (
        Decision.DENY,
        "hardline.credentials",
        "[policy-denied]",
    )
