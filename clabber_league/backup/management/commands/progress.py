"""A progress bar for the backup commands, on a terminal only (tqdm, on standard error)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from tqdm import tqdm

from clabber_league.backup.services import Progress


@contextmanager
def progress_bar(*, description: str, show: bool) -> Iterator[Progress | None]:
    """``show`` is whether standard output is a terminal: piped or scheduled runs (cron,
    CI) print no bar, so their logs hold no carriage-return noise."""
    if not show:
        yield None
        return
    with tqdm(desc=description, unit=" rows", unit_scale=True, file=sys.stderr) as bar:

        def advance(rows: int, total: int) -> None:
            if total and bar.total != total:
                bar.total = total
            bar.update(rows)

        yield advance
