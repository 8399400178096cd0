"""Tables people read and scripts cut: one helper for every list the CLI prints.

On a terminal: a rich table whose key columns (ids, sequence numbers) never wrap or shrink, so
an id can always be copied whole, while the other columns fold to fit the width (80 columns
included). Piped (or ``--plain``): a header line and one tab-separated line per row, no
borders and no colours, ready for ``cut -f``, ``grep`` and ``awk -F'\\t'``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from rich.text import Text

Cell = str | Text


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    key: bool = False  # copied by people (an id, a seq): never wrapped, never cut


def plain(cell: Cell) -> str:
    text = cell.plain if isinstance(cell, Text) else cell
    return " ".join(text.split())  # tabs and newlines inside a cell would break the row


def print_rows(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    *,
    title: str | None = None,
    console: Console | None = None,
    force_plain: bool = False,
) -> None:
    out = console or Console(highlight=False)
    if force_plain or not out.is_terminal:
        lines = ["\t".join(c.name for c in columns)]
        lines += ["\t".join(plain(cell) for cell in row) for row in rows]
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        return
    out.print(build_table(columns, rows, title=title))


def build_table(
    columns: Sequence[Column], rows: Sequence[Sequence[Cell]], *, title: str | None = None
) -> Table:
    """The terminal form (also for ``Live`` views that redraw it)."""
    table = Table(title=title, header_style="bold")
    for i, column in enumerate(columns):
        if column.key:
            widest = max([len(plain(row[i])) for row in rows] + [len(column.name)])
            table.add_column(column.name, no_wrap=True, min_width=widest, overflow="ignore")
        else:
            table.add_column(column.name, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table
