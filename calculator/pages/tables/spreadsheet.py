"""CSV that a spreadsheet opens as data, never as a formula (OWASP "CSV injection").

A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read by spreadsheet programs as a
formula (`=HYPERLINK("http://ev.il", "x")` in a player's name becomes a link, worse formulas run); such a cell is
written with a leading `'`, which the spreadsheet shows as text. Numbers are not text: −7 is written `-7` and stays
a number that a spreadsheet adds up.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """The value as a CSV cell: a text that would start a formula gets a leading `'`; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeWriter:
    """`csv.writer` whose every cell goes through `cell`, whichever row it is."""

    def __init__(self, stream):
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[object]):
        return self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)
