"""The one CSV writer of the floor: every export (shift figures, ratings, tournament results) goes
through it, so a cell a spreadsheet would run as a formula is written as text.

A player's name or a tournament's name is typed by people; one that begins with ``=``, ``+``, ``-``,
``@`` (or a tab or carriage return before one) is a formula to Excel and LibreOffice, which can
fetch a URL or run a command when the file is opened. Such a cell is written with a leading
apostrophe, which spreadsheets show as text. A number (an int, or money written as ``-12.50``) is
left as it is: it is data, and a negative amount must stay a number."""
from __future__ import annotations

import csv
import re
from typing import Any, Iterable

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class Writer:
    """``csv.writer`` with every cell escaped."""

    def __init__(self, out, **kwargs) -> None:
        self._w = csv.writer(out, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._w.writerow([cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out, **kwargs) -> Writer:
    return Writer(out, **kwargs)
