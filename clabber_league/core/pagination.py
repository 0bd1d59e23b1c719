"""Paging for every list of the API: ``?page=`` and ``?page_size=`` (at most 200).

A page past the end is a 404 with the API's error body; ``count``, ``next`` and
``previous`` say where the rest is. New list endpoints get this through the
``DEFAULT_PAGINATION_CLASS`` setting.
"""

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
PAGE_SIZE_INVALID = "page_size must be a whole number from 1 to {most}, not {value}."


class PagePagination(PageNumberPagination):
    page_size = DEFAULT_PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    page_size_query_description = (
        f"Results per page, 1 to {MAX_PAGE_SIZE} (default {DEFAULT_PAGE_SIZE})."
    )

    def get_page_size(self, request: Request) -> int:
        """``?page_size=`` a whole number from 1 (more than the most gives the most);
        anything else (``null``, ``0``, ``ten``) is a 400 naming it, not quietly the
        default."""
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or int(raw) < 1:
            raise ValidationError(
                {"page_size": [PAGE_SIZE_INVALID.format(value=raw[:20], most=self.max_page_size)]}
            )
        return min(int(raw), self.max_page_size)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] in (self.page_size_query_param, self.page_query_param):
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters
