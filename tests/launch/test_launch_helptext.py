"""Reading help texts: options, choices (short and long forms), commands, examples."""

from __future__ import annotations

from collections.abc import Callable

from bastion.launch.helptext import HelpExample, HelpOption, HelpText, parse_help

HelpOf = Callable[..., HelpText]


def test_commander_choices_are_read_from_the_parenthesised_list(help_of: HelpOf) -> None:
    option = help_of("claude").option("--permission-mode")
    assert option is not None
    assert option.choices == ("acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan")


def test_clap_long_help_choices_keep_what_each_one_means(help_of: HelpOf) -> None:
    assert help_of("codex").option("-a") == HelpOption(
        ("-a", "--ask-for-approval"),
        True,
        "Configure when the model requires human approval before executing a command "
        "Possible values: - on-request: The model decides when to ask the user for approval "
        "- never: Never ask for user approval Execution failures are immediately returned to "
        "the model",
        ("on-request", "never"),
        (
            ("on-request", "The model decides when to ask the user for approval"),
            ("never", "Never ask for user approval Execution failures are immediately returned to"),
        ),
    )


def test_the_subcommand_help_is_a_different_text_from_the_top_level(help_of: HelpOf) -> None:
    top, exec_ = help_of("codex"), help_of("codex", "exec")
    assert (top.option("-a") is not None, exec_.option("-a")) == (True, None)
    assert (top.non_interactive, exec_.non_interactive) == (False, True)
    assert "exec" in top.commands and "e" in top.commands


def test_yargs_commands_drop_the_repeated_program_name(help_of: HelpOf) -> None:
    assert help_of("gemini").commands == (
        "mcp",
        "extensions",
        "extension",
        "skills",
        "skill",
        "hooks",
        "hook",
        "gemma",
    )


def test_examples_keep_their_comment_and_words(help_of: HelpOf) -> None:
    assert (
        HelpExample(
            "Read-only mode (no file modifications possible)",
            ("pi", "--tools", "read,grep,find,ls", "-p", "Review the code in src/"),
        )
        in help_of("pi").examples
    )


def test_an_unreadable_help_gives_no_options() -> None:
    assert parse_help("<could not run foo: No such file>") == HelpText(
        "<could not run foo: No such file>", (), (), ()
    )


def test_the_launch_package_exports_a_sorted_public_api() -> None:
    import bastion.launch as launch

    assert launch.__all__ == sorted(launch.__all__, key=lambda n: (not n.isupper(), n))
    assert all(hasattr(launch, name) for name in launch.__all__)
