"""Tables of the command line: fitted to the terminal's width when standard output is one (rich
wraps long cells inside their column), plain aligned columns when piped (one row a line, for grep).

Cells are text, never markup: a cell holding ``[bold]`` is shown as written.
"""
from __future__ import annotations

import io
import shutil
import sys

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text


def _plain(rows: list[list[str]], right=()) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for j, r in enumerate(rows):
        lines.append("  ".join(c.rjust(widths[i]) if i in right and j else c.ljust(widths[i])
                               for i, c in enumerate(r)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def fitted(rows: list[list[str]], width: int, right=()) -> str:
    """The table in at most ``width`` columns (a header row first); no colour, no escape codes."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    for i, h in enumerate(rows[0]):
        table.add_column(Text(h), overflow="fold", justify="right" if i in right else "left")
    for r in rows[1:]:
        table.add_row(*(Text(c) for c in r))
    out = io.StringIO()
    Console(file=out, width=max(width, 20), color_system=None, force_terminal=False, no_color=True,
            highlight=False, emoji=False, markup=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").split("\n"))


def text_table(rows: list[list[str]], stream=None, right=()) -> str:
    """``rows`` (the first is the header) as text for ``stream`` (default standard output); the
    columns numbered in ``right`` are aligned to the right."""
    stream = stream or sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return _plain(rows, right)
    return fitted(rows, shutil.get_terminal_size((100, 24)).columns, right)
