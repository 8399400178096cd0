"""CLI tables: ids never wrap at 80 columns on a terminal; piped output is tab-separated."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from bastion.adapters.cli.tables import Column, print_rows

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
