"""Model instances from hand-written SQL, as the ORM would have built them.

A few statements run on every request of a hot path (the club and the caller's membership
of every API request, the game a recorded deal locks). Built by the ORM, such a query's
compilation costs more CPU than its round trip to the database; written once by hand and
kept, it costs nothing. These helpers keep such a statement in step with the models: its
columns come from the model's fields (:func:`columns`), and its values are converted as the
ORM converts them before they become an instance (:func:`instance`); :func:`for_update`
is its lock clause where the database has one, :data:`MAX_ID` the largest id a row can
have, and :func:`prefetched` hands related rows read alongside to ``<relation>.all()``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

M = TypeVar("M", bound=Model)

#: The largest id a bigint column holds: a larger one names no row, and the database would
#: refuse it as a parameter (the ORM, too, finds no row for it).
MAX_ID = 2**63 - 1

#: Per database connection (a thread's own): each model's fields, with the converters the
#: ORM applies to their columns (a date on SQLite, JSON text, ...). Resolving them costs
#: more than the conversion, and they depend only on the model and the connection.
_CONVERTERS: weakref.WeakKeyDictionary[Any, dict[type[Model], list[tuple[Any, list[Callable]]]]]
_CONVERTERS = weakref.WeakKeyDictionary()


def columns(model: type[Model], alias: str, *, using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """``alias."column"`` of each of the model's concrete fields, in :func:`instance`'s
    order; quoted, as a column may bear a reserved word's name (a fixture's ``table``)."""
    quote = connections[using].ops.quote_name
    return [f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields]


def instance(model: type[M], values: Sequence[Any], *, using: str = DEFAULT_DB_ALIAS) -> M:
    """The instance of ``model`` whose :func:`columns` the database sent as ``values``."""
    connection = connections[using]
    by_model = _CONVERTERS.setdefault(connection, {})
    fields = by_model.get(model)
    if fields is None:
        fields = by_model[model] = _converters(model, connection)
    converted = []
    for (column, converters), value in zip(fields, values, strict=True):
        for converter in converters:
            value = converter(value, column, connection)
        converted.append(value)
    names = [f.attname for f in model._meta.concrete_fields]
    return model.from_db(using, names, converted)


def _converters(model: type[Model], connection: Any) -> list[tuple[Any, list[Callable]]]:
    fields = []
    for field in model._meta.concrete_fields:
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        fields.append((column, converters))
    return fields


def for_update(of: str | None = None, *, using: str = DEFAULT_DB_ALIAS) -> str:
    """`` FOR UPDATE`` (``OF`` the table aliased ``of`` alone, where that can be said) to
    end a statement that locks the rows it reads; nothing where the database has no row
    locks (SQLite, which serialises writers itself)."""
    features = connections[using].features
    if of is not None and features.has_select_for_update_of:
        return f" FOR UPDATE OF {of}"
    return " FOR UPDATE" if features.has_select_for_update else ""


def prefetched(instance: Model, **related: list[Any]) -> None:
    """``instance.<name>.all()`` answers the rows ``related[name]`` without a query, as
    after ``prefetch_related``; anything more (a filter, select_related) queries as usual."""
    cache = instance.__dict__.setdefault("_prefetched_objects_cache", {})
    for name, values in related.items():
        queryset = getattr(instance, name).all()
        queryset._result_cache = values
        queryset._prefetch_done = True
        cache[name] = queryset
