"""Tables people read and scripts cut: one helper for every list the CLI prints.

On a terminal: a rich table laid out to the terminal's width (80 columns included) without
ever splitting a word or an id. Key columns (ids, sequence numbers) are printed whole on one
line; text columns wrap between words; path-like columns (commands, transcript paths) stay on
one line and are shortened from the middle, so both the start and the end stay readable. When
even that does not fit, the columns of least value are left out first (``--wide`` prints them
all, at their natural width, and lets the terminal wrap). Piped (or ``--plain``): a header line
and one tab-separated line per row, no borders and no colours, ready for ``cut -f``, ``grep``
and ``awk -F'\\t'`` -- always every column, never shortened.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from rich.console import Console
from rich.table import Table
from rich.text import Text

Cell = str | Text

#: A path-like column is never shortened below this (nor below its header).
MIDDLE_FLOOR = 12
#: A word longer than this in a wrapping column is cut with an ellipsis rather than widen
#: the column without bound (a URL in a message): it is never split across lines.
LONGEST_WORD = 24
ELLIPSIS = "…"


class Fit(Enum):
    """How a column gives up width when the table is too wide."""

    KEY = "key"  # copied by people (an id, a seq): whole, on one line, never left out
    WRAP = "wrap"  # wraps between words; a word is never split
    MIDDLE = "middle"  # one line, shortened from the middle (paths, commands)


@dataclass(frozen=True, slots=True)
class Column:
    """``keep``: higher is left out later when the terminal is too narrow for every column;
    ``least``: the narrowest this column may get before others are left out to make room."""

    name: str
    key: bool = False
    fit: Fit = Fit.WRAP
    keep: int = 0
    least: int = 0

    @property
    def how(self) -> Fit:
        return Fit.KEY if self.key else self.fit


def plain(cell: Cell) -> str:
    text = cell.plain if isinstance(cell, Text) else cell
    return " ".join(text.split())  # tabs and newlines inside a cell would break the row


@dataclass(frozen=True, slots=True)
class Layout:
    """The width of each column on screen; ``None`` for a column left out."""

    widths: tuple[int | None, ...]


#: What rich's default box adds around n columns: a border before each column and after the
#: last, and one space of padding on either side of every cell.
def _frame(count: int) -> int:
    return 3 * count + 1 if count else 0


def layout(columns: Sequence[Column], rows: Sequence[Sequence[Cell]], width: int) -> Layout:
    """Fit ``columns`` into ``width`` terminal cells (a pure function: the tests drive it)."""
    natural = [_natural(i, column, rows) for i, column in enumerate(columns)]
    floors = [_floor(i, column, rows, natural[i]) for i, column in enumerate(columns)]
    # A column with nothing in it says nothing: it goes first, whatever the width.
    shown = [i for i, c in enumerate(columns) if c.how is Fit.KEY or any(plain(row[i]) for row in rows)]
    droppable = sorted((i for i in shown if columns[i].how is not Fit.KEY), key=lambda i: columns[i].keep)
    while _frame(len(shown)) + sum(floors[i] for i in shown) > width and droppable:
        shown.remove(droppable.pop(0))
    widths: list[int | None] = [None] * len(columns)
    for i in shown:
        widths[i] = floors[i]
    spare = width - _frame(len(shown)) - sum(floors[i] for i in shown)
    # Hand the spare cells out one at a time to the column that lacks most of what its
    # longest cell needs (the more valued one on a tie), so no column hogs them.
    lacking = {i: natural[i] - floors[i] for i in shown if natural[i] > floors[i]}
    while spare > 0 and lacking:
        i = max(lacking, key=lambda i: (lacking[i], columns[i].keep))
        widths[i] = (widths[i] or 0) + 1
        spare -= 1
        lacking[i] -= 1
        if not lacking[i]:
            del lacking[i]
    return Layout(tuple(widths))


def _natural(i: int, column: Column, rows: Sequence[Sequence[Cell]]) -> int:
    return max([len(plain(row[i])) for row in rows] + [len(column.name)])


def _floor(i: int, column: Column, rows: Sequence[Sequence[Cell]], natural: int) -> int:
    if column.how is Fit.KEY:
        return natural
    if column.how is Fit.MIDDLE:
        return min(natural, max(len(column.name), MIDDLE_FLOOR, column.least))
    longest = max([len(w) for row in rows for w in plain(row[i]).split()] + [0])
    return min(natural, max(len(column.name), min(longest, LONGEST_WORD), column.least))


def shorten_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: its start and its end, an ellipsis between.
    The end gets the larger share (a path's file name, a command's last argument)."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    head = (width - 1) // 3
    tail = width - 1 - head
    return text[:head] + ELLIPSIS + text[len(text) - tail :]


def print_rows(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    *,
    title: str | None = None,
    console: Console | None = None,
    force_plain: bool = False,
    wide: bool = False,
) -> None:
    out = console or Console(highlight=False)
    if force_plain or not out.is_terminal:
        lines = ["\t".join(c.name for c in columns)]
        lines += ["\t".join(plain(cell) for cell in row) for row in rows]
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        return
    table = build_table(columns, rows, title=title, width=None if wide else out.width)
    if wide:
        # Every column at its natural width: the terminal wraps the lines, rich does not.
        shown_width = out.width
        out.width = max(shown_width, table_width(columns, rows))
        try:
            out.print(table, crop=False)
        finally:
            out.width = shown_width
    else:
        out.print(table)


def table_width(columns: Sequence[Column], rows: Sequence[Sequence[Cell]]) -> int:
    return _frame(len(columns)) + sum(_natural(i, c, rows) for i, c in enumerate(columns))


def build_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    *,
    title: str | None = None,
    width: int | None = None,
) -> Table:
    """The terminal form (also for ``Live`` views that redraw it); ``width=None`` lays every
    column out at its natural width."""
    widths: Sequence[int | None] = (
        [_natural(i, c, rows) for i, c in enumerate(columns)]
        if width is None
        else layout(columns, rows, width).widths
    )
    shown = [i for i, w in enumerate(widths) if w is not None]
    table = Table(title=title, header_style="bold")
    for i in shown:
        column, w = columns[i], widths[i]
        if column.how is Fit.WRAP:
            table.add_column(column.name, width=w, overflow="ellipsis")
        else:
            table.add_column(column.name, width=w, no_wrap=True, overflow="ignore")
    for row in rows:
        cells: list[Cell] = []
        for i in shown:
            cell, w = row[i], widths[i]
            if columns[i].how is Fit.MIDDLE and w is not None:
                cell = _middle(cell, w)
            # A cell is text, never markup: "[policy-denied]" must print as written.
            cells.append(Text(cell) if isinstance(cell, str) else cell)
        table.add_row(*cells)
    return table


def _middle(cell: Cell, width: int) -> Cell:
    text = plain(cell)
    if len(text) <= width:
        return cell
    short = shorten_middle(text, width)
    return Text(short, style=cell.style) if isinstance(cell, Text) else short
