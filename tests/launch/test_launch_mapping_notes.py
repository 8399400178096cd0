"""What a mapping says: the reading of each flag, what it cannot enforce, its assumptions."""

from __future__ import annotations

from collections.abc import Callable

from bastion.launch.agents import KNOWN, spec_for
from bastion.launch.helptext import HelpText, parse_help
from bastion.launch.mapping import Mapping, map_ceiling
from bastion.policy.ceiling import NO_CEILING, Ceiling

HelpOf = Callable[..., HelpText]
NETWORK = (
    "cannot enforce network=denied: its help lists no flag that blocks network access "
    "(sandboxing the agent itself would cut it off from its own model API)"
)


def test_network_denied_is_refused_with_the_reason_when_no_flag_blocks_network(help_of: HelpOf) -> None:
    ceiling = Ceiling("ask_for_risky", "unrestricted", "denied")
    assert map_ceiling(KNOWN["gemini"], help_of("gemini"), ceiling) == Mapping(
        "gemini",
        ceiling,
        False,
        (),
        None,
        ("not started: no mode fits inside the ceiling ask_for_risky,unrestricted,denied", NETWORK),
    )


def test_read_only_is_refused_for_an_agent_with_no_flag_that_stops_writes(help_of: HelpOf) -> None:
    ceiling = Ceiling("ask_every_action", "read_only", "allowed")
    assert map_ceiling(KNOWN["opencode"], help_of("opencode"), ceiling).notes == (
        "not started: no mode fits inside the ceiling ask_every_action,read_only,allowed",
        "cannot enforce filesystem=read_only: its help lists no flag that stops it writing files",
    )


def test_codex_exec_cannot_ask_so_an_asking_ceiling_does_not_start_it(help_of: HelpOf) -> None:
    ceiling = Ceiling("ask_for_risky", "workspace_write", "allowed")
    assert map_ceiling(KNOWN["codex"], help_of("codex", "exec"), ceiling).notes == (
        "not started: no mode fits inside the ceiling ask_for_risky,workspace_write,allowed",
        "cannot enforce approval=ask_for_risky: it runs non-interactively, so it cannot ask before acting",
        "the command runs non-interactively: counted as never asking",
    )


def test_dimensions_that_fit_alone_but_not_together_are_reported_as_such(help_of: HelpOf) -> None:
    ceiling = Ceiling("ask_every_action", "read_only", "denied")
    assert map_ceiling(KNOWN["codex"], help_of("codex"), ceiling).notes[1:] == (
        "its flags fit each dimension alone, but no combination fits all three",
    )


def test_a_config_override_is_used_only_with_a_note_saying_so(help_of: HelpOf) -> None:
    ceiling = Ceiling("ask_every_action", "workspace_write", "denied")
    mapping = map_ceiling(KNOWN["claude"], help_of("claude"), ceiling)
    assert mapping == Mapping(
        "claude",
        ceiling,
        True,
        ("--permission-mode", "plan", "--settings", KNOWN["claude"].overrides[0].value),
        Ceiling("ask_every_action", "read_only", "denied"),
        (
            "--permission-mode plan: plan/read-only mode: asks about everything, writes nothing "
            "(until you approve leaving it in the agent's own prompt)",
            f"--settings <…>: {KNOWN['claude'].overrides[0].note}",
            "left out: --permission-mode auto (meaning not clear from its name)",
            "left out: --permission-mode dontAsk (meaning not clear from its name)",
        ),
        (),
    )


def test_an_agent_started_with_no_permission_flag_is_marked_as_an_assumption(help_of: HelpOf) -> None:
    mapping = map_ceiling(KNOWN["codex"], help_of("codex"), NO_CEILING)
    assert (mapping.flags, mapping.assumptions) == (
        (),
        (
            "no flag given sets when it asks: assumed to ask before acting (its own settings may "
            "say otherwise)",
        ),
    )
    assert mapping.notes == (
        "runs with no permission flag",
        "left out: --ask-for-approval on-request (meaning not clear from its name)",
    )


def test_a_boolean_sandbox_without_named_choices_is_left_out(help_of: HelpOf) -> None:
    mapping = map_ceiling(KNOWN["gemini"], help_of("gemini"), NO_CEILING)
    assert mapping.notes == (
        "--approval-mode auto_edit: accept-edits mode: asks about risky actions",
        "left out: --sandbox (a sandbox without named choices: its help does not say what it restricts)",
        "left out: --approval-mode plan (Gemini CLI overrides plan mode to default (which can "
        "write after asking) in a folder it does not trust, and its help does not say so)",
    )


def test_permission_flags_in_agent_args_stop_the_agent_from_starting(help_of: HelpOf) -> None:
    bypass = Ceiling("never_ask", "unrestricted", "allowed")
    mapping = map_ceiling(
        KNOWN["claude"],
        help_of("claude"),
        bypass,
        ["--dangerously-skip-permissions", "--allowedTools", "Bash"],
    )
    assert (mapping.started, mapping.notes) == (
        False,
        (
            "not started: AGENT_ARGS set permission flags (--dangerously-skip-permissions, "
            "--allowedTools); Bastion sets those from the ceiling alone",
        ),
    )


def test_a_config_override_in_agent_args_is_refused_only_when_it_touches_permissions(
    help_of: HelpOf,
) -> None:
    codex = help_of("codex")
    assert map_ceiling(KNOWN["codex"], codex, NO_CEILING, ["-c", 'model="o3"']).started
    refused = map_ceiling(KNOWN["codex"], codex, NO_CEILING, ["-c", "approval_policy=never"])
    assert refused.notes == (
        "not started: AGENT_ARGS set permission flags (--config "
        "approval_policy=never); Bastion sets those from the ceiling alone",
    )


def test_a_print_flag_in_agent_args_counts_as_never_asking(help_of: HelpOf) -> None:
    claude = help_of("claude")
    assert not map_ceiling(KNOWN["claude"], claude, NO_CEILING, ["-p", "hi"]).started
    plan = map_ceiling(KNOWN["claude"], claude, Ceiling("never_ask", "read_only", "allowed"), ["-p", "hi"])
    assert (plan.flags, plan.effective) == (
        ("--permission-mode", "plan"),
        Ceiling("never_ask", "read_only", "allowed"),
    )


UNKNOWN_HELP = """Usage: foo [options]

Foo - an agent nobody has heard of

Options:
  --approval <mode>          When to ask (choices: "manual", "auto", "yolo")
  --unsafe-skip-all-checks   Skip all permission checks
  -h, --help                 Show help
"""


def test_an_unknown_agent_is_read_by_the_same_words_not_refused() -> None:
    help_text = parse_help(UNKNOWN_HELP)
    spec = spec_for("foo")
    ask = map_ceiling(spec, help_text, NO_CEILING)
    never = map_ceiling(spec, help_text, Ceiling("never_ask", "unrestricted", "allowed"))
    assert (ask.flags, ask.notes, ask.assumptions) == (
        ("--approval", "manual"),
        (
            "--approval manual: default mode: asks about everything",
            "left out: --approval auto (meaning not clear from its name)",
        ),
        (),
    )
    assert never.flags == ("--unsafe-skip-all-checks",)


def test_claude_s_network_denying_sandbox_is_not_offered_without_the_helpers_it_needs(
    help_of: HelpOf,
) -> None:
    import sys

    import pytest

    if not sys.platform.startswith("linux"):
        pytest.skip("Claude Code's sandbox needs bwrap and socat on Linux only")
    ceiling = Ceiling("ask_every_action", "workspace_write", "denied")
    mapping = map_ceiling(KNOWN["claude"], help_of("claude"), ceiling, present=lambda exe: exe != "socat")
    assert mapping.started is False
    assert any(
        note.startswith("left out: --settings")
        and "needs socat on PATH" in note
        and "apt-get install socat" in note
        for note in mapping.notes
    ), mapping.notes
    with_helpers = map_ceiling(KNOWN["claude"], help_of("claude"), ceiling, present=lambda exe: True)
    assert with_helpers.started is True


def test_a_mode_choice_named_ask_before_edit_is_read_as_asking_about_risky_actions() -> None:
    from bastion.launch.helptext import HelpOption
    from bastion.launch.mapping import Setting, _read_choice

    option = HelpOption(("--approval-mode",), True, "approval mode", ("ask-before-edit", "askBeforeEdits"))
    assert [_read_choice(option, c) for c in option.choices] == [
        Setting(
            "--approval-mode",
            ("--approval-mode", choice),
            "ask-before-edit mode: reads run, asks before every edit",
            "ask_for_risky",
        )
        for choice in option.choices
    ]
