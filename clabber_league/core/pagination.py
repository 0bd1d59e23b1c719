"""Paging for every list of the API: ``?page=`` and ``?page_size=`` (at most 200).

A page past the end is a 404 with the API's error body; ``count``, ``next`` and
``previous`` say where the rest is. New list endpoints get this through the
``DEFAULT_PAGINATION_CLASS`` setting.
"""

from rest_framework.pagination import PageNumberPagination

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


class PagePagination(PageNumberPagination):
    page_size = DEFAULT_PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    page_size_query_description = (
        f"Results per page, 1 to {MAX_PAGE_SIZE} (default {DEFAULT_PAGE_SIZE})."
    )
