"""Helpers of the stores' parity tests (``tests/<app>/test_store_parity.py``): each store
function against the ORM query it replaces, on data hypothesis makes up, on SQLite and
(``DATABASE_URL`` set) PostgreSQL.

Each example writes its rows inside :func:`rolled_back`, so the examples of one test share
the test's fixtures and leave nothing behind; a write is compared by the rows it leaves
(:func:`state`), written once by the store and once by the ORM, each rolled back.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable, Iterator
from typing import Any

from django.db import models, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Few examples: every one writes rows, and the suite must stay quick.
PARITY = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

small = st.integers(min_value=0, max_value=9)
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ÄÖéß'", min_size=1, max_size=12)
dates = st.dates(min_value=datetime.date(2026, 1, 1), max_value=datetime.date(2027, 12, 31))


@contextlib.contextmanager
def rolled_back() -> Iterator[None]:
    """A savepoint undone at the end, whatever happened inside."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def norm(value: Any) -> Any:
    """A value as both databases and the ORM agree on it: booleans as numbers (SQLite's raw
    rows hand 0/1), sequences element by element."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list | tuple):
        return tuple(norm(v) for v in value)
    return value


def fields_of(instance: models.Model | None, *, skip: tuple[str, ...] = ()) -> tuple | None:
    """Every concrete field's value of ``instance`` (None for None), but ``skip``."""
    if instance is None:
        return None
    return tuple(
        getattr(instance, f.attname)
        for f in instance._meta.concrete_fields
        if f.attname not in skip
    )


def state(model: type[models.Model], *, skip: tuple[str, ...] = ("id", "updated_at")) -> list:
    """The rows of ``model``'s table, but ``skip``, in a fixed order."""
    columns = [f.attname for f in model._meta.concrete_fields if f.attname not in skip]
    return sorted(model.objects.values_list(*columns), key=repr)


def after(write: Callable[[], None], *models_: type[models.Model]) -> list:
    """The rows of ``models_`` after ``write``, which is then undone."""
    with rolled_back():
        write()
        return [state(m) for m in models_]
