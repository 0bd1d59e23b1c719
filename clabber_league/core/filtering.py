"""Ordering and ``updated_since`` for the API's lists, alike on every list that has them.

Both are ``DEFAULT_FILTER_BACKENDS`` (with django-filter's field filters) and do nothing on
a view that does not ask for them:

- ``?ordering=<field>`` or ``-<field>`` (descending): DRF's ``OrderingFilter`` on a view
  that names its allow-list in ``ordering_fields`` (a list of model fields, or a mapping
  of the names clients send to the fields they order by: ``{"username": "user__username"}``).
  The schema lists the allowed values; any other value is a 400 naming ``ordering`` (DRF's
  own filter ignores it quietly). Rows level on the field keep their id order, so a client
  paging through a list sees every row once.
- ``?updated_since=<ISO 8601 date-time with its time zone>``: only the rows changed at or
  after that moment (the view's ``updated_since_field``, a ``DateTimeField``, or its own
  ``filter_updated_since(queryset, moment)``), for a client that polls and wants only what
  changed. A value that is not a date-time, or has no time
  zone, is a 400 naming ``updated_since``. A ``+`` offset sent unencoded in the query
  arrives as a space; it is read as the ``+`` it was.

Both apply to lists only (a detail's ``get_object`` is never filtered by them).
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet
from django.utils.dateparse import parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.filters import BaseFilterBackend, OrderingFilter
from rest_framework.request import Request

ORDERING_PARAMETER = "ordering"
UPDATED_SINCE_PARAMETER = "updated_since"
ORDERING_UNKNOWN = "ordering must be one of {allowed}, not {value}."
UPDATED_SINCE_INVALID = (
    "updated_since must be an ISO 8601 date-time with its time zone, such as "
    "2026-12-05T18:30:00Z or 2026-12-05T19:30:00+01:00, not {value}."
)
UPDATED_SINCE_DESCRIPTION = (
    "Only what changed at or after this moment: an ISO 8601 date-time with its time zone "
    "(2026-12-05T18:30:00Z). Poll with the updated_at of the newest row you read to fetch "
    "only what changed since. Another value is a 400."
)
#: ``?updated_since=`` for an operation that filters by hand (``UpdatedSinceFilter.apply``).
UPDATED_SINCE_OPENAPI = OpenApiParameter(
    UPDATED_SINCE_PARAMETER,
    OpenApiTypes.DATETIME,
    OpenApiParameter.QUERY,
    required=False,
    description=UPDATED_SINCE_DESCRIPTION,
)
#: ``...T19:30:00 01:00``: an unencoded ``+`` read as a space.
_SPACE_OFFSET = re.compile(r"^(.+T[0-9:.]+) ([0-9]{2}(?::?[0-9]{2})?)$")


def _is_list(view: Any) -> bool:
    return not getattr(view, "detail", False)


def allowed_orderings(view: Any) -> list[str]:
    """Every value ``?ordering=`` takes on this view: each field, then each descending."""
    fields = list(getattr(view, "ordering_fields", None) or [])
    return [*fields, *(f"-{name}" for name in fields)]


class StrictOrderingFilter(OrderingFilter):
    """``?ordering=`` from the view's ``ordering_fields`` allow-list; else a 400."""

    ordering_param = ORDERING_PARAMETER

    def get_ordering(self, request: Request, queryset: QuerySet, view: Any) -> list[str] | None:
        raw = request.query_params.get(self.ordering_param)
        if raw is None:
            return None  # the view's own order
        allowed = allowed_orderings(view)
        if raw not in allowed:
            raise ValidationError(
                {
                    self.ordering_param: [
                        ORDERING_UNKNOWN.format(allowed=", ".join(allowed), value=raw[:40])
                    ]
                }
            )
        fields = getattr(view, "ordering_fields", None)
        name = raw.removeprefix("-")
        field = fields[name] if isinstance(fields, dict) else name
        descending = "-" if raw.startswith("-") else ""
        return [f"{descending}{field}", f"{descending}pk"]

    def filter_queryset(self, request: Request, queryset: QuerySet, view: Any) -> QuerySet:
        if not getattr(view, "ordering_fields", None) or not _is_list(view):
            return queryset
        ordering = self.get_ordering(request, queryset, view)
        return queryset.order_by(*ordering) if ordering else queryset

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        if not getattr(view, "ordering_fields", None):
            return []
        allowed = allowed_orderings(view)
        return [
            {
                "name": self.ordering_param,
                "required": False,
                "in": "query",
                "description": "Order the list by one field; a leading - orders it "
                f"descending. One of: {', '.join(allowed)}. Rows level on it keep their "
                "id order. Another value is a 400.",
                "schema": {"type": "string", "enum": allowed},
            }
        ]


def parse_updated_since(raw: str) -> Any:
    """The aware datetime ``raw`` names; a 400 naming ``updated_since`` otherwise."""
    text = raw.strip()
    spaced = _SPACE_OFFSET.match(text)
    if spaced:
        text = f"{spaced.group(1)}+{spaced.group(2)}"
    try:
        moment = parse_datetime(text) if len(text) <= 40 else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None or moment.utcoffset() is None:
        raise ValidationError(
            {UPDATED_SINCE_PARAMETER: [UPDATED_SINCE_INVALID.format(value=raw[:40])]}
        )
    return moment


class UpdatedSinceFilter(BaseFilterBackend):
    """``?updated_since=`` on a view with ``updated_since_field``."""

    def filter_queryset(self, request: Request, queryset: QuerySet, view: Any) -> QuerySet:
        field = getattr(view, "updated_since_field", None)
        if not field or not _is_list(view):
            return queryset
        custom = getattr(view, "filter_updated_since", None)
        raw = request.query_params.get(UPDATED_SINCE_PARAMETER)
        if custom is not None and raw is not None:
            return custom(queryset, parse_updated_since(raw))
        return self.apply(request, queryset, field)

    @staticmethod
    def apply(request: Request, queryset: QuerySet, field: str) -> QuerySet:
        """``queryset`` changed since the request's ``updated_since`` (all without it)."""
        raw = request.query_params.get(UPDATED_SINCE_PARAMETER)
        if raw is None:
            return queryset
        return queryset.filter(**{f"{field}__gte": parse_updated_since(raw)})

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        if not getattr(view, "updated_since_field", None):
            return []
        return [
            {
                "name": UPDATED_SINCE_PARAMETER,
                "required": False,
                "in": "query",
                "description": UPDATED_SINCE_DESCRIPTION,
                "schema": {"type": "string", "format": "date-time"},
            }
        ]
