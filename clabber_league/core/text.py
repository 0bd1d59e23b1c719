"""Hostile text, refused at the door: one check for every page and API request.

A NUL byte cannot be stored by PostgreSQL (text or jsonb), a lone surrogate cannot be
encoded, and a control character in a name breaks an e-mail header or a calendar line.
So every query parameter, form field and JSON string is checked before any view runs, and
a bad one answers 400 with the error body naming the field, never a 500:

- nowhere: NUL, a lone surrogate, or a control character other than tab, CR and LF;
- in a name (``name``, ``slug``, ``city``, ``username``, ``title``, ``*_name``, and every
  query parameter): no tab, CR or LF either, so one line stays one line.

Free text (notes, the lines of a paper sheet, a team's list of players) keeps its newlines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.html import escape
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser

NUL_OR_CONTROL = "Control characters (such as a NUL byte) are not allowed here."
LONE_SURROGATE = "This text is not valid Unicode (a lone surrogate)."
ONE_LINE = "This must be one line: no line breaks or tabs."

#: Field names that are names: one line, no tabs.
SINGLE_LINE_FIELDS = frozenset({"name", "slug", "city", "username", "title", "email"})

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE = re.compile(r"[\t\r\n\u2028\u2029\x85]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def is_single_line_field(name: str) -> bool:
    last = name.rsplit(".", 1)[-1].split("[", 1)[0]
    return last in SINGLE_LINE_FIELDS or last.endswith("_name")


def text_problem(value: str, *, single_line: bool) -> str | None:
    """Why ``value`` is refused, or None."""
    if _SURROGATE.search(value):
        return LONE_SURROGATE
    if _CONTROL.search(value):
        return NUL_OR_CONTROL
    if single_line and _LINE.search(value):
        return ONE_LINE
    return None


def data_errors(data: Any, prefix: str = "", *, depth: int = 0) -> Iterator[dict[str, str]]:
    """Every refused string (keys too) in parsed JSON, named like the error body's fields."""
    if depth > 50:  # nesting is bounded by the body's size; this bounds the walk too
        yield {"field": prefix, "message": "The request is nested too deeply."}
        return
    if isinstance(data, str):
        problem = text_problem(data, single_line=is_single_line_field(prefix))
        if problem:
            yield {"field": prefix, "message": problem}
    elif isinstance(data, Mapping):
        for key, value in data.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            problem = text_problem(str(key), single_line=True)
            if problem:
                yield {"field": _printable(name), "message": problem}
                continue
            yield from data_errors(value, name, depth=depth + 1)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from data_errors(value, f"{prefix}[{index}]", depth=depth + 1)


def _printable(name: str) -> str:
    return _SURROGATE.sub("\ufffd", _CONTROL.sub("\ufffd", name))


def _pairs_errors(
    pairs: Iterable[tuple[str, list[str]]], *, all_single_line: bool
) -> list[dict[str, str]]:
    errors = []
    for key, values in pairs:
        problem = text_problem(key, single_line=True)
        if problem:
            errors.append({"field": _printable(key), "message": problem})
            continue
        single = all_single_line or is_single_line_field(key)
        for value in values:
            problem = text_problem(value, single_line=single)
            if problem:
                errors.append({"field": key, "message": problem})
                break
    return errors


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, then the hostile-text check over every key and string."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        errors = list(data_errors(data))
        if errors:
            raise ValidationError({"errors": errors[:50]})
        return data


class HostileTextMiddleware:
    """400 before any view for a query parameter or form field carrying hostile text."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        errors = []
        problem = text_problem(request.path, single_line=True)
        if problem:
            errors.append({"field": "path", "message": problem})
        errors += _pairs_errors(request.GET.lists(), all_single_line=True)
        content_type = request.content_type or ""
        # The API takes JSON bodies only (a form is its 415) and checks them in its parser;
        # reading request.POST here would exhaust the body before DRF could say so.
        is_api = request.path.startswith("/api/")
        if not errors and not is_api and request.method == "POST" and content_type in _FORM_TYPES:
            errors = _pairs_errors(request.POST.lists(), all_single_line=False)
        if errors:
            return refusal(request, errors)
        return self.get_response(request)


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def refusal(request: HttpRequest, errors: list[dict[str, str]]) -> HttpResponse:
    """The error body as JSON for the API, as a short page for a person."""
    accept = request.headers.get("Accept", "")
    if request.path.startswith("/api/") or "application/json" in accept:
        from .api import problem_response
        from .versions import CURRENT, HEADER

        response = problem_response(request, 400, errors)
        response[HEADER] = CURRENT
        return response
    items = "".join(
        f"<li><strong>{escape(e['field'])}</strong>: {escape(e['message'])}</li>" for e in errors
    )
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>Bad request</title></head><body><main><h1>Bad request</h1>"
        f"<ul>{items}</ul></main></body></html>"
    )
    return HttpResponse(body, status=400, content_type="text/html; charset=utf-8")
