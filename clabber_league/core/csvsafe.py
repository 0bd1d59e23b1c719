"""CSV cells a spreadsheet cannot run (OWASP, "CSV Injection").

A cell whose text begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
read as a formula by Excel, LibreOffice and Google Sheets; a team named
``=HYPERLINK(...)`` would run on the secretary's laptop. Every CSV this service writes,
pages and API alike, passes its cells through ``cell``: such text gets a leading
apostrophe. Numbers stay numbers (a negative points difference is not text).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def row(values: Iterable[Any]) -> list[Any]:
    return [cell(v) for v in values]
