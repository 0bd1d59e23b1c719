"""Log lines an operator can search: the request id on every line, JSON when asked for.

Every log line written while a request (or a Celery task) is being handled carries its
request id (``record.request_id``; ``-`` outside one), the id that the response returns in
``X-Request-ID`` and the API's error body in ``request_id``. ``DJANGO_LOG_FORMAT=json`` (the
production default) writes one JSON object a line, which log shippers (Loki, Elasticsearch,
CloudWatch, journald) read without a parser of their own::

    {"time": "2026-12-05T19:04:11.203Z", "level": "INFO", "logger": "clabber_league.access",
     "message": "POST /api/clubs/oak/games/12/deals/ 201 38ms", "request_id": "9f0c...",
     "method": "POST", "path": "/api/clubs/oak/games/12/deals/", "status": 201,
     "duration_ms": 38.2, "client_ip": "203.0.113.7", "user_id": 42}

Pure Python (no Django): the logging configuration imports it before any app is ready.
"""

from __future__ import annotations

import contextvars
import logging
from datetime import UTC, datetime

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

#: The id of the request (or task) this thread or coroutine is handling now.
request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "clabber_request_id", default=None
)

NO_REQUEST = "-"


def current_request_id() -> str | None:
    return request_id_var.get()


class RequestIdFilter(logging.Filter):
    """Puts the current request id on every record (``%(request_id)s`` in a plain format)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = request_id_var.get() or NO_REQUEST
        return True


class PlainFormatter(logging.Formatter):
    """One line of text with the request id, for any handler (with the filter or not)."""

    def format(self, record: logging.LogRecord) -> str:
        RequestIdFilter().filter(record)
        return super().format(record)


class JsonFormatter(_JsonFormatter):
    """One JSON object a line: time (UTC, ISO 8601 with milliseconds), level, logger,
    message, request_id, whatever the call passed in ``extra=``, and the traceback as
    ``exc_info`` for an exception."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger"})
        super().__init__(
            "%(levelname)s %(name)s %(message)s %(request_id)s",
            *args,  # type: ignore[arg-type]
            **kwargs,  # type: ignore[arg-type]
        )

    def add_fields(self, log_data: dict, record: logging.LogRecord, message_dict: dict) -> None:
        super().add_fields(log_data, record, message_dict)
        stamp = datetime.fromtimestamp(record.created, tz=UTC)
        log_data["time"] = stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        if not log_data.get("request_id"):
            log_data["request_id"] = request_id_var.get() or NO_REQUEST
