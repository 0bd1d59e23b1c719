"""The API's list filters (``DEFAULT_FILTER_BACKENDS``): django-filter's, except that a
filter by an object's id that names nothing here matches nothing.

``?division=999`` where the club has no division 999 (or it is another club's) answers an
empty page, as a filter by any other value that matches nothing does, rather than a 400
"Select a valid choice": the schema says such a parameter is an integer, and an integer is
what the client sent. A value that is not a whole number is still a 400 naming the field.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_filters import ModelChoiceFilter, ModelMultipleChoiceFilter
from django_filters.rest_framework import DjangoFilterBackend
from django_filters.utils import translate_validation

BY_ID = (ModelChoiceFilter, ModelMultipleChoiceFilter)


class FilterBackend(DjangoFilterBackend):
    def filter_queryset(self, request: Any, queryset: QuerySet, view: Any) -> QuerySet:
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        if filterset.is_valid():
            return filterset.qs
        if all(_names_nothing(filterset, name) for name in filterset.errors):
            return queryset.none()
        raise translate_validation(filterset.errors)


def _names_nothing(filterset: Any, name: str) -> bool:
    """The field's only fault is an id (a whole number) that is not among its choices."""
    if not isinstance(filterset.filters.get(name), BY_ID):
        return False
    codes = {e.code for e in filterset.form.errors.as_data().get(name, ())}
    values = filterset.form.data.getlist(name) if hasattr(filterset.form.data, "getlist") else []
    whole = all(str(v).strip().lstrip("-").isdigit() for v in values) and bool(values)
    return codes <= {"invalid_choice"} and bool(codes) and whole
