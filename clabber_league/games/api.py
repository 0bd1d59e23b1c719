"""API of games: start a game, record deals (idempotently), correct them, confirm the game.

Deal errors use the rules calculator's body, ``{"errors": [{"field", "message"}]}``,
with the fields of the deal (``points.B``, ``melds.A[0].top``).
"""

import functools
from collections.abc import Mapping
from typing import Any

from django.db.models import Exists, Max, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.calculator.payloads import (
    OUTCOMES,
    SIDES,
    WINNERS,
    DealInputSerializer,
    DealResultSerializer,
    PerSideField,
    PerSideInputSerializer,
)
from clabber_league.clubs.api_base import NEEDS_ROLE, ClubScopedMixin, ClubScopedModelViewSet
from clabber_league.clubs.models import Player
from clabber_league.clubs.privacy import sees_names
from clabber_league.clubs.serializers_base import ClubScopedSerializer
from clabber_league.core.api import error_list
from clabber_league.core.conditional import conditional
from clabber_league.core.errors import CONFLICT
from clabber_league.core.idempotency import KeyReused, check_replay, idempotent
from clabber_league.leagues.models import Division, Team
from clabber_league.rules import BUILTIN_RULESETS
from clabber_league.scheduling.models import Fixture

from . import selectors, services, table_links
from .models import Deal, DealRevision, Game, GameSeat, TableLink
from .replay import by_table_link, correction_keeper
from .table_links import TableLinkAuthentication, api_grant

#: The game's views take the phone at a table too: ``Authorization: Table <token>`` (its
#: table link's token) scores that one game without an account (``games.table_links``); last,
#: so that a 401 still asks for a Token.
TABLE_AUTHENTICATION = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES, TableLinkAuthentication]


class TableLinkScheme(OpenApiAuthenticationExtension):
    target_class = "clabber_league.games.table_links.TableLinkAuthentication"
    name = "tableLink"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "The phone at a table, without an account: `Table <token>`, the "
            "token of the game's table link (the last part of its `/t/<token>/` URL). It "
            "records, corrects, deletes and previews the deals of that one game, copies "
            "paper-sheet rows and reads the game, its deals and history, until the game is "
            "confirmed or the link is revoked or expires; anything else answers 403 with "
            "the reason.",
        }


@extend_schema_field(PerSideInputSerializer)
class PerSideInputField(serializers.DictField):
    """A number per side, each there or not (``PerSideInput``)."""

    child = serializers.IntegerField()


BODY_NOT_OBJECT = "The deal must be a JSON object."
ROWS_NOT_LIST = "rows must be a list of sheet rows (objects)."


@extend_schema_field(DealInputSerializer)
class DealDataField(serializers.JSONField):
    """A deal as recorded, in the rules engine's JSON."""


#: A deal to record names its maker (``DealInputRequest.required``): the side that named
#: trump, or null for a deal passed out or one every side reneged. The stored deal's
#: ``data`` (``DealInput``, a response) leaves it out of a passed deal, and a phone written
#: before sends a passed deal without it, still read as null.
MAKER_REQUIRED_IN = ("DealInputRequest", "ScoreDealRequest")
MAKER_DESCRIPTION = (
    "The side that named trump: A, B or C; null when the deal was passed out (passed) or "
    "every side reneged."
)


def postprocess_maker_required(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """``maker`` is a required (nullable) property of the deal a client sends."""
    schemas = result.get("components", {}).get("schemas", {})
    for name in MAKER_REQUIRED_IN:
        schema = schemas.get(name)
        if schema is None or "maker" not in schema.get("properties", {}):
            continue
        schema["required"] = sorted({*schema.get("required", []), "maker"})
        schema["properties"]["maker"]["description"] = MAKER_DESCRIPTION
    return result


@extend_schema_field(DealResultSerializer)
class DealResultField(serializers.JSONField):
    """The rules engine's answer for a deal."""


class GameSidesSerializer(serializers.Serializer):
    """The team (id) of each side; null for a game outside a league."""

    A = serializers.IntegerField(allow_null=True)
    B = serializers.IntegerField(allow_null=True)
    C = serializers.IntegerField(allow_null=True, required=False)


class GameSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0, 1, 2 ... clockwise from the first dealer.")
    side = serializers.ChoiceField(choices=SIDES, help_text="A, B or C.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    substitute = serializers.BooleanField(
        help_text="The player sat in for the side's team without being one of its players."
    )


class GameSerializer(serializers.ModelSerializer):
    sides = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    scores = PerSideField(read_only=True)
    winner = serializers.ChoiceField(
        choices=WINNERS,
        allow_blank=True,
        read_only=True,
        help_text='A side, "tie", or "" while the game is not over.',
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "division",
            "fixture",
            "number",
            "rules",
            "first_dealer",
            "status",
            "winner",
            "scores",
            "deal_count",
            "played_on",
            "created_at",
            "updated_at",
            "finished_at",
            "confirmed_at",
            "sides",
            "seats",
        ]
        read_only_fields = fields

    @extend_schema_field(GameSidesSerializer)
    def get_sides(self, game: Game) -> dict[str, int | None]:
        return {s.side: s.team_id for s in game.sides.all()}

    @extend_schema_field(GameSeatSerializer(many=True))
    def get_seats(self, game: Game) -> list[dict[str, Any]]:
        to_member = sees_names(getattr(self.context.get("view"), "club_access", None))
        return [
            {
                "seat": s.seat,
                "side": s.side,
                "player": s.player_id,
                "name": s.player.shown_name(to_member=to_member),
                "substitute": s.substitute,
            }
            for s in game.seats.all()
        ]


GAME_CREATE_EXAMPLE = {
    "division": 1,
    "fixture": 5,
    "sides": {"A": 1, "B": 2},
    "seats": [1, 3, 2, 4],
    "first_dealer": 0,
}
GAME_CREATE_SUBSTITUTE_EXAMPLE = {
    "division": 1,
    "fixture": 5,
    "sides": {"A": 1, "B": 2},
    "seats": [1, 3, 2, 9],
    "first_dealer_player": 2,
}


def _pk(value: Any) -> int | None:
    """An id as DRF's PrimaryKeyRelatedField would look it up, or None (not an id)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


class _Loaded(serializers.PrimaryKeyRelatedField):
    """A related id answered from the rows ``GameCreateSerializer`` read in bulk (one query
    per model instead of one per id); an id it did not find, or not an id, goes the usual
    way, with DRF's own errors."""

    def __init__(self, model: type, **kwargs: Any) -> None:
        self.model = model
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        loaded = getattr(self.root, "loaded", {}).get(self.model, {})
        found = loaded.get(_pk(data))
        return found if found is not None else super().to_internal_value(data)


#: The most players any rule set seats at one table.
MAX_SEATS = max(ruleset.players for ruleset in BUILTIN_RULESETS.values())
SEATS_TOO_MANY = "A table seats at most {cap} players; {given} seats were given."
#: The most sides any rule set has.
MAX_SIDES = max(len(ruleset.sides) for ruleset in BUILTIN_RULESETS.values())
SIDES_TOO_MANY = "A game has at most {cap} sides; {given} were given."


class GameCreateSerializer(ClubScopedSerializer):
    division = _Loaded(Division, queryset=Division.objects.all())
    fixture = _Loaded(Fixture, queryset=Fixture.objects.all(), required=False, allow_null=True)
    sides = serializers.DictField(
        child=_Loaded(Team, queryset=Team.objects.all(), allow_null=True),
        help_text='Team of each side: {"A": team id, "B": team id}.',
    )
    seats = _Loaded(
        Player,
        many=True,
        queryset=Player.objects.all(),
        help_text="The players who actually sit at the table, in seat order, clockwise; "
        "seats 0 and 2 are side A in a partnership game. Any player of the club may sit "
        "for a side: one who is not on the side's team is recorded as a substitute; a "
        "player of the other side's team may not.",
    )
    first_dealer = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="The seat (0, 1, ...) of the first dealer; 0 when neither this nor "
        "first_dealer_player is given.",
    )
    first_dealer_player = _Loaded(
        Player,
        queryset=Player.objects.all(),
        required=False,
        help_text="The first dealer as a player (id) at the table, instead of a seat; "
        "given with first_dealer, both must name the same seat.",
    )
    number = serializers.IntegerField(min_value=1, default=1)
    played_on = serializers.DateField(required=False, allow_null=True)

    class Meta:
        model = Game
        fields = [
            "division",
            "fixture",
            "sides",
            "seats",
            "first_dealer",
            "first_dealer_player",
            "number",
            "played_on",
        ]

    def get_fields(self):
        fields = super().get_fields()
        club = self.context.get("club")
        child = fields["sides"].child
        child.queryset = Team.objects.filter(club=club) if club else Team.objects.none()
        return fields

    def to_internal_value(self, data: Any) -> Any:
        """Reads the rows the request names in bulk first: the division with its house
        rules, the fixture, the teams with their players (the seats' check of sides needs
        them), the players; a query per model, not per id."""
        club = self.context.get("club")
        self.loaded: dict[type, dict[int, Any]] = {}
        if club is not None and isinstance(data, Mapping):
            self.loaded = _load_game_rows(club, data)
        return super().to_internal_value(data)


def _ids(value: Any) -> list[int]:
    values = value if isinstance(value, list | tuple) else [value]
    return [pk for pk in map(_pk, values) if pk is not None]


def _load_game_rows(club: Any, data: Mapping[str, Any]) -> dict[type, dict[int, Any]]:
    sides = data.get("sides")
    seats = data.get("seats")
    # Refused before anything is read: the work stays the size of a table.
    if isinstance(seats, list | tuple) and len(seats) > MAX_SEATS:
        message = SEATS_TOO_MANY.format(cap=MAX_SEATS, given=len(seats))
        raise ValidationError({"seats": [message]})
    if isinstance(sides, Mapping) and len(sides) > MAX_SIDES:
        message = SIDES_TOO_MANY.format(cap=MAX_SIDES, given=len(sides))
        raise ValidationError({"sides": [message]})
    return selectors.start_rows(
        club=club,
        divisions=_ids(data.get("division")),
        fixtures=_ids(data.get("fixture")),
        teams=_ids(list(sides.values())) if isinstance(sides, Mapping) else [],
        players=_ids(seats) + _ids(data.get("first_dealer_player")),
    )


class SheetRowSerializer(serializers.Serializer):
    sheet = PerSideInputField(
        required=False, help_text="Each side's number as written on the sheet."
    )
    maker = serializers.CharField(required=False)
    mark = serializers.ChoiceField(choices=["made", "set", "renege"], required=False)
    passed = serializers.BooleanField(required=False)


class SheetRowsSerializer(serializers.Serializer):
    rows = SheetRowSerializer(many=True)


class DealSerializer(serializers.ModelSerializer):
    maker = serializers.ChoiceField(
        choices=SIDES, allow_blank=True, read_only=True, help_text='"" when nobody named trump.'
    )
    outcome = serializers.ChoiceField(choices=OUTCOMES, read_only=True)
    score = PerSideField(source="scores", read_only=True)
    running_totals = PerSideField(source="running", read_only=True)
    data = DealDataField(read_only=True)
    result = DealResultField(read_only=True)

    class Meta:
        model = Deal
        fields = [
            "id",
            "number",
            "dealer",
            "maker_seat",
            "maker",
            "data",
            "outcome",
            "score",
            "running_totals",
            "result",
            "entered_at_table",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


@functools.cache
def _deal_serializer() -> DealSerializer:
    """One DealSerializer whose fields are built once: a ModelSerializer builds them anew
    on every instance, a tenth of a recorded deal's time in Python."""
    return DealSerializer()


def deal_body(deal: Deal) -> dict[str, Any]:
    """``DealSerializer(deal).data``, from the serializer built once (its fields keep no
    state of a request: the same body)."""
    return _deal_serializer().to_representation(deal)


class TableLinkSerializer(serializers.Serializer):
    """A game's table link: what the phone at the table scans."""

    id = serializers.IntegerField()
    game = serializers.IntegerField()
    table_label = serializers.CharField(help_text='The table ("3"), as the history names it.')
    url = serializers.CharField(help_text="The link to open (and print as a QR code).")
    token = serializers.CharField(help_text="For the header `Authorization: Table <token>`.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)


class TableLinkIssueSerializer(serializers.Serializer):
    table_label = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=40,
        help_text="The table's name; the old link's (or the fixture's table) when left out.",
    )


def _table_link_body(link: TableLink, request: Request) -> dict[str, Any]:
    return {
        "id": link.pk,
        "game": link.game_id,
        "table_label": link.table_label,
        "url": table_links.table_link_url(link, request=request),
        "token": table_links.table_link_token(link),
        "created_at": link.created_at,
        "expires_at": link.expires_at,
        "revoked_at": link.revoked_at,
    }


def _actor(request: Request) -> Any:
    """Who writes: the account, or nobody (the phone of a table link)."""
    return request.user if request.user.is_authenticated else None


def _at_table(view: Any, request: Request) -> str:
    return table_links.at_table(view.club_access, request.user)


#: The game's columns an answer about it shows (its own and its sheet's): with its newest
#: change in the history and its deals' last write, its version for ``ETag``.
GAME_VERSION_COLUMNS = (
    "status",
    "winner",
    "deal_count",
    "score_a",
    "score_b",
    "score_c",
    "deal_limit",
    "finished_at",
    "confirmed_at",
    "updated_at",
)


def game_version(view: Any, game_id: Any, *, names: bool = False) -> Any:
    """What a game's answers (the game, its sheet of deals) are made from, in one query: its
    row, the id of its newest history entry (every deal recorded, corrected or deleted, the
    game confirmed, closed or abandoned writes one) and its deals' newest ``updated_at``;
    with ``names``, its seats' players as shown (a renamed player). Whether the caller sees
    members' names is part of it. None for no such game (the view answers 404)."""
    if not str(game_id).isdigit():
        return None
    newest = {
        "last_change": Subquery(
            DealRevision.objects.filter(game=OuterRef("pk")).order_by("-id").values("id")[:1]
        ),
        "last_deal": Subquery(
            Deal.objects.filter(game=OuterRef("pk"))
            .values("game")
            .annotate(at=Max("updated_at"))
            .values("at")
        ),
    }
    row = (
        Game.objects.filter(club=view.club, pk=int(game_id))
        .annotate(**newest)
        .values_list(*GAME_VERSION_COLUMNS, "last_change", "last_deal")
        .first()
    )
    if row is None:
        return None
    to_member = sees_names(view.club_access)
    seats = None
    if names:
        seats = list(
            GameSeat.objects.filter(game_id=int(game_id))
            .order_by("seat")
            .values_list("player_id", "player__name", "player__name_public", "substitute")
        )
    return (row, to_member, seats)


class GameViewSet(
    ClubScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """A club's games. Scorers and club admins start games; players confirm finished ones."""

    serializer_class = GameSerializer
    queryset = Game.objects.none()
    write_need = "score"
    filterset_fields = ["division", "status", "fixture"]
    #: ``?ordering=`` (``core.filtering``): started, changed, finished, confirmed, played.
    ordering_fields = ["created_at", "updated_at", "finished_at", "confirmed_at", "played_on"]
    updated_since_field = "updated_at"
    authentication_classes = TABLE_AUTHENTICATION
    table_grant = api_grant

    @conditional(
        lambda view, request, *args, **kwargs: game_version(view, kwargs.get("pk"), names=True)
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """One game; its ``ETag`` changes with any change to it (send ``If-None-Match``)."""
        return super().retrieve(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Game]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.game_list(club=self.club)

    def filter_updated_since(self, queryset: QuerySet[Game], moment: Any) -> QuerySet[Game]:
        """``?updated_since=``: games whose row changed since, or that have a history entry
        since (every deal recorded, corrected or deleted, every confirmation, close or
        abandon writes one), whether or not the write listed ``updated_at``."""
        changed = DealRevision.objects.filter(game=OuterRef("pk"), at__gte=moment)
        return queryset.filter(Q(updated_at__gte=moment) | Exists(changed))

    def get_serializer_class(self):
        return GameCreateSerializer if self.action == "create" else GameSerializer

    def get_authenticators(self):
        """The schema names the table link only on the operations that take it (reading the
        game, copying paper-sheet rows); at run time the others refuse it with a 403 that
        says so (``games.table_links.api_grant``)."""
        authenticators = super().get_authenticators()
        action = getattr(self, "action", None)
        if action is not None and action not in table_links.API_ACTIONS["GameViewSet"]:
            return [a for a in authenticators if not isinstance(a, TableLinkAuthentication)]
        return authenticators

    def get_permissions(self):
        if self.action == "confirm":
            self.write_need = "play"
        if self.action in ("table_link", "table_link_revoke"):
            self.write_need = "manage"
        return super().get_permissions()

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameSerializer, 400: ERROR_BODY},
        examples=[
            OpenApiExample(
                "The teams' players",
                summary="Each side's team players at the table; seat 0 deals first",
                value=GAME_CREATE_EXAMPLE,
                request_only=True,
            ),
            OpenApiExample(
                "A substitute, the first dealer by player",
                summary="Player 9 sits in for side B's team; player 2 (seat 2) deals first",
                value=GAME_CREATE_SUBSTITUTE_EXAMPLE,
                request_only=True,
            ),
        ],
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = GameCreateSerializer(data=request.data, context=self.get_serializer_context())
        if not serializer.is_valid():
            return Response(
                {"errors": error_list(serializer.errors)}, status=status.HTTP_400_BAD_REQUEST
            )
        data = serializer.validated_data
        game = services.game_start(
            club=self.club,
            division=data["division"],
            sides=data["sides"],
            seats=data["seats"],
            first_dealer=data.get("first_dealer"),
            first_dealer_player=data.get("first_dealer_player"),
            fixture=data.get("fixture"),
            number=data["number"],
            played_on=data.get("played_on"),
            user=request.user,
        )
        # The game as written, its sides and seats held by game_start: nothing read again.
        return Response(GameSerializer(game).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=SheetRowsSerializer,
        responses={201: DealSerializer(many=True), 400: ERROR_BODY},
        summary="Copy rows of an old paper sheet; answers the deals it created",
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="paper-sheet",
        filter_backends=[],
        pagination_class=None,
    )
    @idempotent
    def paper_sheet(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Each row is checked for being a result some legal deal could give; all rows are
        saved or none. Errors name the row: ``rows[2].sheet.B``."""
        rows = request.data.get("rows") if isinstance(request.data, Mapping) else None
        if not isinstance(rows, list) or not all(isinstance(r, Mapping) for r in rows):
            return Response(
                {"errors": [{"field": "rows", "message": ROWS_NOT_LIST}]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        services.check_rows_count(len(rows))  # before any work: GameError, 400
        game = self.get_object()
        deals = services.sheet_rows_record(
            game=game, rows=rows, user=_actor(request), at_table=_at_table(self, request)
        )
        location = reverse("deal-list", kwargs={"club_slug": self.club.slug, "game_id": game.pk})
        return Response(
            DealSerializer(deals, many=True).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )

    @extend_schema(request=None, responses={200: GameSerializer, 400: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        services.game_confirm(game=game, user=request.user, access=self.club_access)
        return Response(GameSerializer(selectors.game_list(club=self.club).get(pk=game.pk)).data)

    @extend_schema(
        request=None,
        responses={200: GameSerializer, 400: ERROR_BODY},
        summary="Abandon a game started by mistake; it is kept, with its history, and counts "
        "nowhere",
    )
    @action(detail=True, methods=["post"])
    def abandon(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The page's "Abandon the game" does the same (``services.game_abandon``): a scorer
        may, until the result is confirmed. The game's fixture can then be played again."""
        game = self.get_object()
        services.game_abandon(game=game, user=request.user)
        return Response(GameSerializer(selectors.game_list(club=self.club).get(pk=game.pk)).data)

    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: TableLinkSerializer, 409: ERROR_BODY},
        summary="The game's table link (its first one is issued when the game has none)",
    )
    @extend_schema(
        methods=["POST"],
        request=TableLinkIssueSerializer,
        responses={201: TableLinkSerializer, 400: ERROR_BODY},
        summary="Issue a new table link (club admins); the old one stops working",
        examples=[
            OpenApiExample(
                "Table 3",
                summary="A new card for table 3",
                value={"table_label": "3"},
                request_only=True,
            )
        ],
    )
    @action(detail=True, methods=["get", "post"], url_path="table-link")
    def table_link(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """GET (scorers and club admins): the link the phone at the table scans, as a URL
        and a token for ``Authorization: Table <token>``. A game that never had a link gets
        its first one; a revoked link is not replaced here (409: a club admin issues a new
        one with POST)."""
        game = self.get_object()
        if request.method in ("GET", "HEAD"):
            if not self.club_access.can("score"):
                if not request.user.is_authenticated:
                    raise NotAuthenticated()
                raise PermissionDenied(NEEDS_ROLE)
            link = table_links.table_link_ensure(game=game, user=request.user)
            if link is None:
                raise services.GameError.one("table_link", table_links.LINK_NONE, kind=CONFLICT)
            return Response(_table_link_body(link, request))
        body = TableLinkIssueSerializer(data=request.data)
        if not body.is_valid():
            return Response({"errors": error_list(body.errors)}, status=status.HTTP_400_BAD_REQUEST)
        link = table_links.table_link_issue(
            game=game, table_label=body.validated_data.get("table_label"), user=request.user
        )
        return Response(_table_link_body(link, request), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={200: TableLinkSerializer, 409: ERROR_BODY},
        summary="Revoke the game's table link (club admins): it no longer records deals",
    )
    @action(detail=True, methods=["post"], url_path="table-link/revoke")
    def table_link_revoke(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        link = table_links.table_link_revoke(game=game, user=request.user)
        return Response(_table_link_body(link, request))


class DealSnapshotSerializer(serializers.Serializer):
    """A deal as it was before or after a change, in the game's history."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    maker_seat = serializers.IntegerField(allow_null=True)
    data = DealDataField()
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    score = PerSideField()


class SetAsideSnapshotSerializer(serializers.Serializer):
    """A deal a phone recorded but the game set aside (it came after the game was over)."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField(allow_null=True, help_text="Always null: not dealt.")
    maker_seat = serializers.IntegerField(allow_null=True)
    data = DealDataField()
    outcome = serializers.CharField(
        allow_blank=True, help_text='What the engine made of it; "" when it could not score it.'
    )
    score = PerSideInputField(help_text="Per side; empty when it could not score it.")
    set_aside = serializers.BooleanField()


class GameSnapshotSerializer(serializers.Serializer):
    """The game as it was before it was abandoned."""

    status = serializers.ChoiceField(choices=Game.Status.choices)
    winner = serializers.ChoiceField(choices=WINNERS, allow_blank=True)
    score = PerSideField()
    deal_count = serializers.IntegerField()
    fixture = serializers.IntegerField(allow_null=True)


class ClosedRecordSerializer(serializers.Serializer):
    """A game closed early: the deals it now has at most."""

    deal_limit = serializers.IntegerField()


class ConfirmedRecordSerializer(serializers.Serializer):
    """How a game was confirmed, and by which seated player where one did."""

    how = serializers.ChoiceField(choices=list(services.CONFIRM_HOW))
    player = serializers.IntegerField(required=False, help_text="The confirming player's id.")
    name = serializers.CharField(required=False, help_text="The confirming player's name.")
    device_user = serializers.IntegerField(
        required=False, help_text="The account whose phone took the PIN."
    )


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="RevisionBefore",
        serializers=[DealSnapshotSerializer, SetAsideSnapshotSerializer, GameSnapshotSerializer],
        resource_type_field_name=None,
        many=False,
    )
)
class RevisionBeforeField(serializers.JSONField):
    """What a change replaced: the deal (update, delete), a deal set aside, or the game
    (abandon); null where there was nothing (create, confirm, close)."""


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="RevisionAfter",
        serializers=[DealSnapshotSerializer, ClosedRecordSerializer, ConfirmedRecordSerializer],
        resource_type_field_name=None,
        many=False,
    )
)
class RevisionAfterField(serializers.JSONField):
    """What a change left: the deal (create, update), the deal limit (close) or how the game
    was confirmed (confirm); null where nothing is left (delete, abandon)."""


class DealPreviewSerializer(serializers.Serializer):
    """What a deal would put on the sheet, before it is saved."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    score = PerSideField()
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    result = DealResultField()
    running_totals = PerSideField()
    finished = serializers.BooleanField(help_text="This deal would end the game.")
    winner = serializers.ChoiceField(
        choices=WINNERS, allow_null=True, help_text='"A", "B", "C", "tie" or null.'
    )
    next_dealer = serializers.IntegerField(allow_null=True)


class DealRevisionSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username", default=None, read_only=True)
    before = RevisionBeforeField(read_only=True, allow_null=True)
    after = RevisionAfterField(read_only=True, allow_null=True)

    class Meta:
        model = DealRevision
        fields = [
            "id",
            "deal_number",
            "action",
            "user",
            "entered_at_table",
            "at",
            "before",
            "after",
        ]
        read_only_fields = fields


def _deal_body(request: Request) -> tuple[dict[str, Any], int | None]:
    if not isinstance(request.data, Mapping):
        raise ValidationError({"errors": [{"field": "", "message": BODY_NOT_OBJECT}]})
    body = dict(request.data)
    maker_seat = body.pop("maker_seat", None)
    if maker_seat is not None and (isinstance(maker_seat, bool) or not isinstance(maker_seat, int)):
        raise ValidationError(
            {"errors": [{"field": "maker_seat", "message": "A seat is a whole number."}]}
        )
    return body, maker_seat


class DealSetAsideSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, help_text="The deal's number on the phone that recorded it."
    )
    deal = DealDataField(help_text="The deal as the phone recorded it (the deal API's body).")


DEAL_NUMBER_PARAMETER = OpenApiParameter(
    "number",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    required=False,
    description="The deal's number as the sender counted it (a phone that recorded deals "
    "offline). When the game's next deal has another number the answer is 409 and nothing "
    "is recorded: another phone or page recorded deals meanwhile.",
)
NUMBER_NOT_WHOLE = "number is the deal's number: a whole number from 1."


def _deal_number(request: Request) -> int | None:
    text = request.query_params.get("number")
    if text is None:
        return None
    if not text.isdigit() or not 0 < int(text) <= 10**6:
        raise ValidationError({"errors": [{"field": "number", "message": NUMBER_NOT_WHOLE}]})
    return int(text)


class DealViewSet(ClubScopedModelViewSet):
    """The deals of one game, in order. Recording needs scorer or club admin."""

    serializer_class = DealSerializer
    queryset = Deal.objects.none()
    write_need = "score"
    http_method_names = ["get", "post", "put", "delete", "head", "options"]
    authentication_classes = TABLE_AUTHENTICATION
    table_grant = api_grant
    ordering_fields = ["number", "updated_at"]
    updated_since_field = "updated_at"

    def queryset_for_club(self, club) -> QuerySet[Deal]:
        return selectors.deal_list(club=club, game_id=self.kwargs["game_id"])

    @conditional(lambda view, request, *args, **kwargs: game_version(view, kwargs["game_id"]))
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The game's sheet: its deals in order, a page at a time. Its ``ETag`` changes with
        any deal recorded, corrected or deleted (send ``If-None-Match`` when polling)."""
        return super().list(request, *args, **kwargs)

    def _game(self) -> Game:
        return get_object_or_404(Game, club=self.club, pk=self.kwargs["game_id"])

    @extend_schema(
        request=DealInputSerializer,
        responses={201: DealSerializer, 400: ERROR_BODY, 409: ERROR_BODY},
        parameters=[DEAL_NUMBER_PARAMETER],
    )
    @idempotent(keeper=None, at_table=lambda view, request: bool(_at_table(view, request)))
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Record the next deal. Send an ``Idempotency-Key`` so that a retry after a lost
        answer never records it twice (the key is kept with the deal, per game and caller:
        a retry answers the deal it recorded, 201; the same key with another body is
        refused with 422; a retry whose deal was deleted since is told so with 409, for the
        key's retention, and records nothing), and ``?number=`` (the deal's number as you
        counted it) to be told with 409, instead of recording it, when another phone
        recorded that deal first."""
        key = request.idempotency_key  # the caller's (a user's, or the table's), checked
        data, maker_seat = _deal_body(request)
        number = _deal_number(request)
        # The anonymous phone at a table keeps no fingerprint with its deal: a retry is
        # told by the deal itself (``deal_same_as_first``), and a deleted deal's key by 409.
        fingerprint = key.fingerprint if key and request.user.is_authenticated else ""
        try:  # the game is read once, locked, by the service
            recorded = services.deal_record(
                game_id=self.kwargs["game_id"],
                club=self.club,
                data=data,
                maker_seat=maker_seat,
                number=number,
                user=_actor(request),
                at_table=_at_table(self, request),
                idempotency_key=key.stored if key else None,
                idempotency_fingerprint=fingerprint,
            )
        except Game.DoesNotExist as exc:
            raise Http404("No Game matches the given query.") from exc  # as get_object_or_404
        except services.DealKeyDeleted as exc:
            # The key's deal was deleted since: a retry is told so (409); the same key with
            # another request is refused as anywhere else (422).
            check_replay(exc.fingerprint, fingerprint)
            raise
        if not recorded.created and recorded.deal.idempotency_fingerprint:
            check_replay(recorded.deal.idempotency_fingerprint, fingerprint)  # 422 if another
        elif not recorded.created and not services.deal_same_as_first(
            deal=recorded.deal, data=data, maker_seat=maker_seat
        ):  # a key kept before fingerprints were: the deal itself tells a retry
            raise KeyReused
        return Response(deal_body(recorded.deal), status=status.HTTP_201_CREATED)

    @extend_schema(request=DealInputSerializer, responses={200: DealSerializer, 400: ERROR_BODY})
    @idempotent(keeper=correction_keeper, at_table=by_table_link)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Correct the deal; the deals after it are re-scored. Send an ``Idempotency-Key``
        (a phone's outbox does) so that a retry after a lost answer gets the first answer
        and changes nothing, even when the deal was corrected again since."""
        deal = self.get_object()
        data, maker_seat = _deal_body(request)
        deal = services.deal_correct(
            deal=deal,
            data=data,
            maker_seat=maker_seat,
            user=_actor(request),
            at_table=_at_table(self, request),
        )
        return Response(DealSerializer(deal).data)

    @extend_schema(responses={204: None, 400: ERROR_BODY})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        deal = self.get_object()
        services.deal_delete(deal=deal, user=_actor(request), at_table=_at_table(self, request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=DealSetAsideSerializer,
        responses={201: DealRevisionSerializer, 400: ERROR_BODY, 409: ERROR_BODY},
        summary="Keep in the history a phone's deal that a person chose not to keep",
    )
    @action(detail=False, methods=["post"], url_path="set-aside")
    @idempotent
    def set_aside(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Two phones recorded the same deal numbers offline and a person kept the other
        phone's: this phone's deals are kept in the game's history (as deleted deals),
        the sheet is unchanged."""
        serializer = DealSetAsideSerializer(data=request.data)
        if not serializer.is_valid():
            return Response(
                {"errors": error_list(serializer.errors)}, status=status.HTTP_400_BAD_REQUEST
            )
        deal = serializer.validated_data["deal"]
        if not isinstance(deal, Mapping):
            raise ValidationError({"errors": [{"field": "deal", "message": BODY_NOT_OBJECT}]})
        data = dict(deal)
        maker_seat = data.pop("maker_seat", None)
        if not isinstance(maker_seat, int) or isinstance(maker_seat, bool):
            maker_seat = None
        revision = services.deal_set_aside(
            game=self._game(),
            number=serializer.validated_data["number"],
            data=data,
            maker_seat=maker_seat,
            user=_actor(request),
        )
        return Response(DealRevisionSerializer(revision).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=DealInputSerializer, responses={200: DealPreviewSerializer, 400: ERROR_BODY}
    )
    @action(detail=False, methods=["post"])
    def preview(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """What the deal would put on the sheet, without saving it."""
        data, maker_seat = _deal_body(request)
        preview = services.deal_preview(game=self._game(), data=data, maker_seat=maker_seat)
        return Response(
            {
                "number": preview.number,
                "dealer": preview.dealer,
                "score": preview.answer["score"],
                "outcome": preview.answer["outcome"],
                "result": preview.answer,
                "running_totals": preview.running,
                "finished": preview.finished,
                "winner": preview.winner,
                "next_dealer": preview.next_dealer,
            }
        )


class RevisionViewSet(ClubScopedMixin, viewsets.ReadOnlyModelViewSet):
    """The audit history of a game: who changed which deal, when, before and after."""

    serializer_class = DealRevisionSerializer
    queryset = DealRevision.objects.none()
    authentication_classes = TABLE_AUTHENTICATION
    table_grant = api_grant

    def get_queryset(self) -> QuerySet[DealRevision]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.revision_list(club=self.club, game_id=self.kwargs["game_id"])


# Request bodies' examples in the schema, by component (``<Serializer name>Request``; the
# PATCH variant uses the same). ``core.schema.postprocess_request_examples`` applies them.
REQUEST_EXAMPLES = {
    "GameCreateRequest": GAME_CREATE_EXAMPLE,
    "DealInputRequest": {
        "maker": "A",
        "maker_seat": 0,
        "trump": "hearts",
        "points": {"A": 100, "B": 52},
        "last_trick": "A",
    },
    "DealSetAsideRequest": {
        "number": 5,
        "deal": {"maker": "A", "maker_seat": 0, "trump": "hearts", "points": {"A": 100}},
    },
    "TableLinkIssueRequest": {"table_label": "3"},
    "SheetRowsRequest": {
        "rows": [
            {"maker": "A", "mark": "made", "sheet": {"A": 110, "B": 52}},
            {"passed": True},
        ]
    },
}
