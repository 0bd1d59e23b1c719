"""API-wide behaviour: every error is JSON, never a stack trace; who am I.

Every rejected input, whichever endpoint, answers 400 with the rules calculator's body:
``{"errors": [{"field": "sides.B", "message": "..."}]}``. A service's refusal
(``core.errors.ServiceError``) and the rules engine's (``RulesError``) are mapped to that
body here, once, so no API view catches them; a ``ServiceError``'s kind gives the status
(invalid 400, conflict 409, not found 404, forbidden 403).

DRF's own exceptions keep their status; a lost database connection becomes a
503 with a JSON body so clients can retry; anything else a 500 with a JSON body.
"""

import logging
from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, InterfaceError, OperationalError
from django.db.models import ProtectedError, RestrictedError
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

from clabber_league.rules import RulesError

from .errors import ServiceError

logger = logging.getLogger(__name__)

SERVICE_UNAVAILABLE = "The database is not reachable right now; please try again shortly."
INTERNAL_ERROR = "Something went wrong on our side; the request was not saved."
TOO_BIG = "The request is larger than this service accepts."
STILL_IN_USE = "This cannot be deleted: {used_by} still refer to it. Remove or change those first."


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, (ServiceError, RulesError)):
        set_rollback()  # nothing of a refused request is written
        code = exc.status if isinstance(exc, ServiceError) else status.HTTP_400_BAD_REQUEST
        return Response({"errors": [dict(e) for e in exc.errors]}, status=code)
    response = drf_exception_handler(exc, context)
    if response is not None:
        if isinstance(exc, ValidationError) and "errors" not in (response.data or {}):
            # One shape for every rejected input, the rules calculator's.
            response.data = {"errors": error_list(response.data)}
        return response
    if isinstance(exc, RequestDataTooBig):
        return Response(
            {"errors": [{"field": "", "message": TOO_BIG}]},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, SuspiciousOperation):
        return Response(
            {"errors": [{"field": "", "message": str(exc) or "Bad request."}]},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, (ProtectedError, RestrictedError)):
        used_by = sorted({str(obj._meta.verbose_name_plural) for obj in exc.protected_objects})
        message = STILL_IN_USE.format(used_by=", ".join(used_by) or "other records")
        return Response(
            {"errors": [{"field": "", "message": message}]}, status=status.HTTP_409_CONFLICT
        )
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.warning("database unavailable: %s", exc)
        return Response(
            {"detail": SERVICE_UNAVAILABLE},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, DatabaseError):
        logger.exception("database error")
    else:
        logger.exception("unhandled API error")
    return Response({"detail": INTERNAL_ERROR}, status=status.HTTP_500_INTERNAL_SERVER_ERROR)


class WhoAmIView(APIView):
    """The logged-in person (session or token): a cheap check that a client's token works."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="whoami",
        responses=inline_serializer("WhoAmI", fields={"username": serializers.CharField()}),
    )
    def get(self, request: Request) -> Response:
        return Response({"username": request.user.get_username()})


def error_list(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested validation errors as the calculator's ``[{"field", "message"}]`` list."""
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            out.extend(error_list(value, f"{prefix}.{name}" if prefix and name else prefix or name))
        return out
    if isinstance(detail, list):
        if all(not isinstance(v, (dict, list)) for v in detail):
            return [{"field": prefix, "message": str(v)} for v in detail]
        out = []
        for index, value in enumerate(detail):
            if value:
                out.extend(error_list(value, f"{prefix}[{index}]"))
        return out
    return [{"field": prefix, "message": str(detail)}]
