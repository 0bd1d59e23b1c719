"""A person's name taken out of stored texts, for their erasure (``clubs.hooks.
player_anonymised``): each app that stored a text naming a player (a notification, a
report, a walkover's note, a webhook's payload) replaces every old name with the
anonymous one, as a whole word and in any case, so "Ann" is not taken out of "Annabel".
Pure functions: the apps' handlers read and write their own rows."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any


def pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for every name (longest first, so "Anna de Vries (NKU-1)" goes whole
    before "Anna de Vries"); None when there is no name to look for."""
    found = sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True)
    if not found:
        return None
    return re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(n) for n in found) + r")(?!\w)", re.IGNORECASE
    )


def text_replaced(text: str, found: re.Pattern[str] | None, name: str) -> str:
    """``text`` with every name of ``found`` replaced by ``name``."""
    if found is None or not text:
        return text
    return found.sub(lambda _m: name, text)


def json_replaced(value: Any, found: re.Pattern[str] | None, name: str) -> Any:
    """A JSON value (dicts, lists, strings) with the names replaced in every string, keys
    included."""
    if isinstance(value, str):
        return text_replaced(value, found, name)
    if isinstance(value, list):
        return [json_replaced(v, found, name) for v in value]
    if isinstance(value, dict):
        return {
            text_replaced(k, found, name): json_replaced(v, found, name) for k, v in value.items()
        }
    return value


def rows_replaced(rows: Iterable[Any], fields: Iterable[str], found, name: str) -> int:
    """Replace the names in ``fields`` (text or JSON) of each row, saving only the rows
    that changed; how many."""
    fields = tuple(fields)
    changed = 0
    for row in rows:
        touched = []
        for field in fields:
            before = getattr(row, field)
            after = (
                text_replaced(before, found, name)
                if isinstance(before, str)
                else json_replaced(before, found, name)
            )
            if after != before:
                setattr(row, field, after)
                touched.append(field)
        if touched:
            row.save(update_fields=touched)
            changed += 1
    return changed


def names_replaced(
    rows: Any,
    fields: Iterable[str],
    names: Iterable[str],
    name: str,
    *,
    look_in: Iterable[str] | None = None,
) -> int:
    """A handler's whole step: every name of ``names`` replaced by ``name`` in ``fields``
    (text or JSON) of ``rows`` (a queryset), first narrowed to the rows whose text fields
    ``look_in`` hold one of the names, when given. How many rows changed; none when there
    is no name to look for."""
    names = tuple(names)
    found = pattern(names)
    if found is None:
        return 0
    if look_in is not None:
        rows = rows.filter(contains_any(look_in, names))
    return rows_replaced(rows, fields, found, name)


def contains_any(fields: Iterable[str], names: Iterable[str]):
    """A filter for rows whose text ``fields`` hold one of ``names`` (in any case): the
    rows a handler then reads and replaces in (``rows_replaced``, whole words only)."""
    from django.db.models import Q

    query = Q(pk__in=[])
    for field in fields:
        for n in names:
            if n:
                query |= Q(**{f"{field}__icontains": n})
    return query
