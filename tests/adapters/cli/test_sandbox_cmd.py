"""``bastion sandbox run`` reads ``--approval ID`` (either spelling) as the request to check,
never as a word of the command, and without it there is none."""

from __future__ import annotations

import pytest

from bastion.adapters.cli.sandbox_cmd import SandboxArgs, UsageError, parse_args

ID = "AbCdEfGhIjKlMnOpQrStUv"


@pytest.mark.parametrize("words", [["--approval", ID], [f"--approval={ID}"]])
def test_the_approval_option_names_the_request_and_leaves_the_command_alone(words: list[str]) -> None:
    parsed = parse_args(
        [
            "run",
            "--profile",
            "workspace-write",
            "--host",
            "github.com",
            *words,
            "--",
            "bash",
            "-c",
            "git push",
        ],
        "/p",
    )
    assert parsed == SandboxArgs(
        "workspace-write", ("github.com",), "/p", None, None, ("bash", "-c", "git push"), (), ID
    )


def test_a_run_without_the_option_names_no_approval() -> None:
    assert parse_args(["run", "--profile", "read-only", "--", "ls"], "/p").approval is None


def test_an_approval_option_without_a_value_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--approval needs a value"):
        parse_args(["run", "--profile", "read-only", "--approval"], "/p")
