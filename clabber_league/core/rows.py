"""Model instances from hand-written SQL, as the ORM would have built them.

A few statements run on every request of a hot path (the club and the caller's membership
of every API request, the game a recorded deal locks). Built by the ORM, such a query's
compilation costs more CPU than its round trip to the database; written once by hand and
kept, it costs nothing. These helpers keep such a statement in step with the models: its
columns come from the model's fields (:func:`columns`), and its values are converted as the
ORM converts them before they become an instance (:func:`instance`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

M = TypeVar("M", bound=Model)

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
