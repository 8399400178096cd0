"""CLI tables: ids never wrap at 80 columns on a terminal; piped output is tab-separated."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from bastion.adapters.cli.tables import Cell, Column, plain, print_rows

ID = "b7Qx-2kLmN9pR4sT6vW8yZ0a"
COLUMNS = (Column("id", key=True), Column("summary"), Column("reason"))
ROWS = [[ID, "shell: " + "git push origin main --force-with-lease " * 3, "a person decides " * 4]]


def test_at_80_columns_an_id_stays_on_one_line_and_whole() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    print_rows(COLUMNS, ROWS, console=console)
    lines = out.getvalue().splitlines()
    assert any(ID in line for line in lines)
    assert all(len(line) <= 80 for line in lines)


def test_piped_output_is_a_header_and_tab_separated_rows_without_markup(
    capsys: pytest.CaptureFixture[str],
) -> None:
    console = Console(file=io.StringIO(), force_terminal=False)
    rows = [[ID, "line one\nline two", Text("FAIL", style="red")]]
    print_rows(COLUMNS, rows, console=console)
    assert capsys.readouterr().out == f"id\tsummary\treason\n{ID}\tline one line two\tFAIL\n"


# --- Every table the CLI prints fits 80 and 120 columns without splitting a word or an id ---

from bastion.adapters.cli.approvals import REQUEST_COLUMNS  # noqa: E402
from bastion.adapters.cli.grants import GRANT_COLUMNS  # noqa: E402
from bastion.adapters.cli.keys_cmd import KEY_COLUMNS  # noqa: E402
from bastion.adapters.cli.logs import LEDGER_COLUMNS  # noqa: E402
from bastion.adapters.cli.policy_cmd import EXAMPLE_COLUMNS  # noqa: E402
from bastion.adapters.cli.policy_diff import COLUMNS as DIFF_COLUMNS  # noqa: E402
from bastion.adapters.cli.replay_cmd import COLUMNS as REPLAY_COLUMNS  # noqa: E402
from bastion.adapters.cli.tables import Fit, layout, shorten_middle  # noqa: E402

LONG_PATH = "/home/someone/projects/a-rather-long-project-name/src/module/deeply/nested/file.py"
MESSAGE = (
    "[policy-denied] /home/someone/.ssh/id_rsa is a credential location: never read by an agent; "
    "it is in deny_read"
)

#: One realistic row per table (the cells its command builds), ids at their real lengths.
TABLES: dict[str, tuple[tuple[Column, ...], list[list[Cell]]]] = {
    "logs": (
        LEDGER_COLUMNS,
        [
            [
                "1204",
                "2026-12-06 23:10:31",
                "requested",
                "ask",
                "person:alice",
                "shell",
                f"shell: git -C {LONG_PATH} push origin main --force-with-lease",
                "mode.workspace @ built-in",
                "claude/5f0c2a9e-4f7e-4a8b-9c61-0d3b1f2e7a44",
                "0 (1.25s)",
            ],
        ],
    ),
    "approvals": (
        REQUEST_COLUMNS,
        [
            [
                ID,
                "pending",
                "shell",
                f"shell: rm -rf {LONG_PATH}",
                "a person decides: 'rm' deletes files",
                "sandbox: workspace-write, network: registry.npmjs.org",
                "2026-12-06 23:10:31",
                "in 4m 59s",
                "shell: rm -rf *",
            ]
        ],
    ),
    "grants": (
        GRANT_COLUMNS,
        [[ID, "always", "shell", "git push origin *", f"project: {LONG_PATH}", "2026-12-06 23:10:31"]],
    ),
    "keys": (
        KEY_COLUMNS,
        [[ID, "approver", "alice's laptop (created by doctor)", "2026-12-06 23:10:31", ""]],
    ),
    "policy test": (
        EXAMPLE_COLUMNS,
        [
            [
                "rule[12]",
                "/home/someone/.config/bastion/policy.toml:40",
                "not_match",
                f"cat {LONG_PATH}",
                Text("FAIL", style="red"),
            ]
        ],
    ),
    "replay": (
        REPLAY_COLUMNS,
        [[f"{LONG_PATH}.jsonl:1834", "Bash cat ~/.ssh/id_rsa", "hardline.credentials @ built-in", MESSAGE]],
    ),
    "policy diff": (
        DIFF_COLUMNS,
        [
            [
                f"{LONG_PATH}.jsonl:18",
                "Bash npm test",
                "mode.workspace @ built-in: a person decides",
                "rule[3] @ proposed.toml:7: allowed by rule",
            ]
        ],
    ),
}


def render(columns: tuple[Column, ...], rows: list[list[Cell]], width: int) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None)
    print_rows(columns, rows, console=console)
    return out.getvalue().splitlines()


def words_on_screen(lines: list[str]) -> set[str]:
    return {word for line in lines for word in line.replace("│", " ").replace("┃", " ").split()}


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("name", list(TABLES))
def test_every_table_fits_the_width_keeps_ids_whole_and_splits_no_word(name: str, width: int) -> None:
    columns, rows = TABLES[name]
    lines = render(columns, rows, width)
    assert all(len(line) <= width for line in lines)
    on_screen = words_on_screen(lines)
    widths = layout(columns, rows, width).widths
    for i, column in enumerate(columns):
        for row in rows:
            text = plain(row[i])
            if column.how is Fit.KEY:
                assert any(text in line for line in lines), f"{column.name} {text!r} not whole on one line"
                continue
            if widths[i] is None:
                continue  # left out for width: --wide shows it
            if column.how is Fit.MIDDLE:
                shown = shorten_middle(text, widths[i] or 0)
                assert any(shown in line for line in lines)
                continue
            for word in text.split():
                # A word is on screen whole, or cut short with an ellipsis -- never in two pieces.
                assert word in on_screen or any(
                    w.endswith("…") and word.startswith(w[:-1]) for w in on_screen
                ), f"{column.name}: {word!r} split"
    headers = [c.name for c, w in zip(columns, widths, strict=True) if w is not None]
    assert all(any(h in line for line in lines) for h in headers), "a header was split"


def test_a_cell_is_printed_as_written_never_read_as_markup() -> None:
    lines = render(REPLAY_COLUMNS, TABLES["replay"][1], 200)
    assert any("[policy-denied] /home/someone/.ssh/id_rsa" in line for line in lines)


def test_the_columns_of_least_value_are_left_out_first_and_empty_ones_always() -> None:
    columns = (Column("id", key=True), Column("empty", keep=9), Column("a", keep=1), Column("b", keep=5))
    rows: list[list[Cell]] = [[ID, "", "x " * 20, "y " * 20]]
    wide_enough = layout(columns, rows, 200).widths
    assert wide_enough == (len(ID), None, 39, 39)
    # Two columns' frame (7 cells) and the id leave one cell: for the more valued column only.
    narrow = layout(columns, rows, len(ID) + 8).widths
    assert narrow == (len(ID), None, None, 1)


def test_key_columns_are_never_shrunk_even_past_the_width() -> None:
    columns = (Column("id", key=True), Column("note"))
    assert layout(columns, [[ID, "words"]], 10).widths == (len(ID), None)


def test_a_middle_shortened_cell_keeps_its_start_and_more_of_its_end() -> None:
    assert shorten_middle("abcdefghijklmnopqrstuvwxyz", 10) == "abc…uvwxyz"
    assert shorten_middle("short", 10) == "short"


def test_wide_prints_every_column_at_its_natural_width() -> None:
    columns, rows = TABLES["logs"]
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    print_rows(columns, rows, console=console, wide=True)
    text = out.getvalue()
    assert f"shell: git -C {LONG_PATH} push origin main --force-with-lease" in text
    assert "claude/5f0c2a9e-4f7e-4a8b-9c61-0d3b1f2e7a44" in text
