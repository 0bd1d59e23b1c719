"""The rules calculator over HTTP: the twin of ``python -m clabber_league.rules``.

``POST /api/rules/score`` scores one deal, ``POST /api/rules/game`` a whole game,
with the same JSON as the command line (RULES.md section 6): 200 with the answer,
or 400 with ``{"errors": [{"field", "message"}]}``. Open to anonymous users and
throttled. The views only hand the body to the rules engine.

Whatever the body, the answer is 200 or 400 with that error body: the body is read
with the command line's own strict JSON decoder (no ``NaN``, nesting too deep for the
parser is a 400, not a 500), and at most ``MAX_BODY_BYTES`` of it.
"""

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clabber_league.core.proxy import ClientScopedRateThrottle
from clabber_league.core.text import data_errors
from clabber_league.rules import RulesError, score_deal, score_game
from clabber_league.rules.calculator import TOO_DEEP, decode

BODY_NOT_OBJECT = "The request body must be a JSON object."
TOO_MANY_DEALS = "At most {cap} deals in one game (the CLABBER_MAX_DEALS_PER_GAME setting)."
BODY_TOO_BIG = "The request body is larger than {most:,} bytes; a game has at most 200 deals."
BODY_NOT_UTF8 = "The request body is not UTF-8 text."
MAX_BODY_BYTES = 1_000_000
"""A 200-deal game with every field filled in is well under this."""


class StrictJSONParser(BaseParser):
    """JSON as the command line reads it; every failure is a ParseError with a message."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        body = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(body) > MAX_BODY_BYTES:
            raise ParseError(BODY_TOO_BIG.format(most=MAX_BODY_BYTES))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError(BODY_NOT_UTF8) from None
        try:
            return decode(text)
        except RulesError as exc:
            raise ParseError(exc.errors[0]["message"]) from None


def _rejected(message: str) -> Response:
    return Response(
        {"errors": [{"field": "", "message": message}]}, status=status.HTTP_400_BAD_REQUEST
    )


ERROR_BODY = inline_serializer(
    "RulesErrors",
    fields={
        "errors": serializers.ListField(
            child=inline_serializer(
                "RulesErrorItem",
                fields={"field": serializers.CharField(), "message": serializers.CharField()},
            )
        )
    },
)

DEAL_EXAMPLE = {
    "ruleset": "clabber",
    "maker": "A",
    "trump": "hearts",
    "bidding": {"round": 2, "turned": "spades"},
    "points": {"A": 90, "B": 62},
    "last_trick": "A",
    "melds": {
        "A": [{"kind": "sequence", "suit": "spades", "top": "A", "length": 3}],
        "B": [{"kind": "four", "rank": "J"}],
    },
    "bell": "A",
}
DEAL_ANSWER = {
    "outcome": "set",
    "score": {"A": 0, "B": 262},
    "totals": {"A": 120, "B": 262},
    "meld_winner": "B",
    "meld_points": {"A": 20, "B": 200},
}
GAME_EXAMPLE = {
    "ruleset": "clabber",
    "options": {"target": 500},
    "deals": [
        {"maker": "A", "trump": "clubs", "points": {"A": 100, "B": 52}, "last_trick": "A"},
        {"passed": True},
    ],
}


class _CalculatorView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ClientScopedRateThrottle]
    throttle_scope = "calculator"
    parser_classes = [StrictJSONParser]
    compute: Callable[[Mapping[str, Any]], dict[str, Any]]

    def post(self, request: Request) -> Response:
        try:
            data = request.data
        except ParseError as exc:
            return _rejected(str(exc.detail))
        if not isinstance(data, Mapping):
            return _rejected(BODY_NOT_OBJECT)
        hostile = list(data_errors(data))  # NUL bytes, control characters (core/text.py)
        if hostile:
            return Response({"errors": hostile[:50]}, status=status.HTTP_400_BAD_REQUEST)
        deals = data.get("deals")
        if isinstance(deals, list) and len(deals) > settings.CLABBER_MAX_DEALS_PER_GAME:
            message = TOO_MANY_DEALS.format(cap=settings.CLABBER_MAX_DEALS_PER_GAME)
            return Response(
                {"errors": [{"field": "deals", "message": message}]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            answer = type(self).compute(data)  # a RulesError is the exception handler's 400
        except RecursionError:
            return _rejected(TOO_DEEP)
        return Response(answer)


class ScoreDealView(_CalculatorView):
    compute = staticmethod(score_deal)

    @extend_schema(
        operation_id="rules_score",
        summary="Score one deal",
        tags=["rules"],
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: ERROR_BODY},
        examples=[
            OpenApiExample(
                "A set maker (RULES.md section 6)", value=DEAL_EXAMPLE, request_only=True
            ),
            OpenApiExample(
                "Its answer", value=DEAL_ANSWER, response_only=True, status_codes=["200"]
            ),
            OpenApiExample(
                "A rejected deal",
                value={"errors": [{"field": "points.B", "message": "..."}]},
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        return super().post(request)


class ScoreGameView(_CalculatorView):
    compute = staticmethod(score_game)

    @extend_schema(
        operation_id="rules_game",
        summary="Score a whole game",
        tags=["rules"],
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: ERROR_BODY},
        examples=[OpenApiExample("Two deals", value=GAME_EXAMPLE, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        return super().post(request)
