"""API-wide behaviour: every error is JSON, never a stack trace; who am I.

DRF's own exceptions keep their status; a lost database connection becomes a
503 with a JSON body so clients can retry; anything else a 500 with a JSON body.
"""

import logging

from django.db import DatabaseError, InterfaceError, OperationalError
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)

SERVICE_UNAVAILABLE = "The database is not reachable right now; please try again shortly."
INTERNAL_ERROR = "Something went wrong on our side; the request was not saved."


def exception_handler(exc: Exception, context: dict) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is not None:
        return response
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
