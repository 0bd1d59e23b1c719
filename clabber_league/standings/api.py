"""API of standings: a division's table and every deal (JSON or CSV), the tiebreakers,
the leaderboards and the ratings. Everything is read from the club in the URL.

Every CSV is an operation of its own, ``text/csv`` only: the table and the deals
(``.../standings/<id>/standings.csv/``, ``.../deals.csv/``, exactly as the pages'
downloads), the leaderboards (``.../leaderboards/players.csv/``, ``.../partnerships.csv/``)
and the ratings (``.../ratings.csv/``, ``.../ratings/<player_id>/history.csv/``). The older
``?format=csv`` (or ``Accept: text/csv``) on the leaderboards' and ratings' JSON operations
still answers the same CSV, for clients written before; it is not in the schema.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.http.response import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.calculator.payloads import OUTCOMES, SIDES, PerSideField
from clabber_league.clubs.api_base import ClubScopedMixin, ClubScopedReadOnlyViewSet
from clabber_league.clubs.privacy import sees_names
from clabber_league.core.conditional import conditional
from clabber_league.core.filtering import UPDATED_SINCE_OPENAPI, UpdatedSinceFilter
from clabber_league.games.models import Deal, Game
from clabber_league.leagues.models import Division, Season

from . import exports, selectors
from .models import TIEBREAKERS, PlayerRating, RatingChange
from .services.tiebreakers import tiebreakers_set

SEASON_PARAMETER = OpenApiParameter(
    "season",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    description="A season's slug; leave out for all time.",
)
SEASON_NOT_FOUND = "No such season in this club."


class StandingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="Level with the next or previous team.")
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    match_points = serializers.IntegerField(help_text="Including carried_points.")
    carried_points = serializers.IntegerField(
        help_text="Match points the team carried over from before its results were entered "
        "here (a season already under way); negative for a deduction."
    )
    matches_played = serializers.IntegerField()
    matches_won = serializers.IntegerField()
    matches_tied = serializers.IntegerField()
    matches_lost = serializers.IntegerField()
    games_played = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_tied = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    games_unconfirmed = serializers.IntegerField()
    game_difference = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    points_difference = serializers.IntegerField()
    sets_inflicted = serializers.IntegerField()
    sets_suffered = serializers.IntegerField()
    deals = serializers.IntegerField()
    placed_by = serializers.CharField(help_text="The tiebreaker that placed it, if one did.")


def _caster(field: serializers.Field) -> type:
    if isinstance(field, serializers.BooleanField):
        return bool
    return int if isinstance(field, serializers.IntegerField) else str


#: A table's row as ``StandingRowSerializer`` renders it (its fields in its order, ints,
#: booleans and strings), built directly: DRF's field machinery took a third of the API read
#: of a 100-team division. The serializer still describes the schema.
_ROW_FIELDS = [(name, _caster(field)) for name, field in StandingRowSerializer().fields.items()]


def _row_data(row: dict[str, Any]) -> dict[str, Any]:
    return {name: None if row[name] is None else cast(row[name]) for name, cast in _ROW_FIELDS}


class MatchPointsSerializer(serializers.Serializer):
    """The match points of a won, tied and lost match in this season."""

    win = serializers.IntegerField()
    tie = serializers.IntegerField()
    loss = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer):
    division = serializers.IntegerField()
    division_name = serializers.CharField()
    season = serializers.CharField()
    points = MatchPointsSerializer()
    tiebreakers = serializers.ListField(child=serializers.CharField())
    explanation = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class DivisionSummarySerializer(serializers.ModelSerializer):
    season = serializers.CharField(source="season.name", read_only=True)

    class Meta:
        model = Division
        fields = ["id", "name", "season"]
        read_only_fields = fields


@extend_schema_serializer(component_name="TiebreakerOrder")  # not named like its one field
class TiebreakersSerializer(serializers.Serializer):
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAKERS)),
        help_text="In the order they are applied after match points.",
    )


class DealRowSerializer(serializers.ModelSerializer):
    game_status = serializers.ChoiceField(
        source="game.status", choices=Game.Status.choices, read_only=True
    )
    maker = serializers.ChoiceField(
        choices=SIDES, allow_blank=True, read_only=True, help_text='"" when nobody named trump.'
    )
    outcome = serializers.ChoiceField(choices=OUTCOMES, read_only=True)
    score = PerSideField(source="scores", read_only=True)
    running_totals = PerSideField(source="running", read_only=True)

    class Meta:
        model = Deal
        fields = [
            "id",
            "game",
            "game_status",
            "number",
            "dealer",
            "maker",
            "maker_seat",
            "data",
            "outcome",
            "score",
            "running_totals",
            "result",
        ]
        read_only_fields = fields


class CSVDownloadRenderer(BaseRenderer):
    """``text/csv`` for the CSV operations, whose views stream their own response; an error
    there is still the API's JSON error body."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return JSONRenderer().render(data, "application/json", renderer_context)


CSV_ONLY = OpenApiResponse(OpenApiTypes.STR, description="CSV, a header row first.")
#: The JSON operations that had ``?format=csv``: it still selects the CSV twin's answer.
RENDERERS = [*api_settings.DEFAULT_RENDERER_CLASSES, CSVDownloadRenderer]


def csv_action(url_path: str, url_name: str, summary: str, operation_id: str, **kwargs: Any):
    """A CSV download as an operation of its own: ``text/csv`` only in the schema, an error
    still the JSON error body, never paged or filtered."""

    def wrap(method):
        method = action(
            methods=["get"],
            url_path=url_path,
            url_name=url_name,
            renderer_classes=[CSVDownloadRenderer],
            pagination_class=None,
            filter_backends=[],
            **kwargs,
        )(method)
        return extend_schema(
            operation_id=operation_id, responses={(200, "text/csv"): CSV_ONLY}, summary=summary
        )(method)

    return wrap


def wants_csv(request: Request) -> bool:
    """``?format=csv`` or ``Accept: text/csv`` on a JSON operation that has a CSV twin."""
    return getattr(request.accepted_renderer, "format", None) == "csv"


class StandingsViewSet(ClubScopedMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The divisions of the club, each division's table, every deal, its tiebreakers; the
    table and the deals as CSV (``.../standings.csv/``, ``.../deals.csv/``)."""

    queryset = Division.objects.none()
    serializer_class = DivisionSummarySerializer
    write_need = "manage"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.division_list(club=self.club)

    def _division(self) -> Division:
        try:
            return selectors.division_get(club=self.club, pk=int(self.kwargs["pk"]))
        except (Division.DoesNotExist, ValueError) as exc:
            raise Http404("No such division in this club.") from exc

    def _table(self) -> selectors.Table:
        """The division's table, read once per request (the ETag and the body share it)."""
        if not hasattr(self, "_read_table"):
            self._read_table = selectors.standings_table(division=self._division())
        return self._read_table

    def _version(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        """The table's key (a digest of every row, tiebreaker and point it is computed
        from: one indexed query, the order itself cached), its unconfirmed games and the
        names of its division and season."""
        table = self._table()
        division = table.division
        return (table.key, table.unconfirmed, str(division.name), str(division.season.name))

    @extend_schema(responses={200: StandingsSerializer})
    @conditional(_version)
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The division's table; its ``ETag`` changes with any result, correction or
        setting that moves it (send ``If-None-Match`` when polling)."""
        table = self._table()
        division = table.division
        body = {
            "division": division.pk,
            "division_name": str(division.name),
            "season": str(division.season.name),
            "points": {str(k): int(v) for k, v in table.points.items()},
            "tiebreakers": [str(t) for t in table.tiebreakers],
            "explanation": [str(e) for e in table.explanation],
            "rows": [_row_data(row) for row in exports.standings_rows(table)],
        }
        return Response(body)  # as StandingsSerializer renders it, without its cost

    @extend_schema(
        operation_id="clubs_standings_table_csv",
        responses={(200, "text/csv"): CSV_ONLY},
        summary="The division's table as CSV",
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="standings.csv",
        url_name="table-csv",
        renderer_classes=[CSVDownloadRenderer],
        pagination_class=None,
        filter_backends=[],
    )
    def standings_csv(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """The table exactly as the page's download: one row per team, in order."""
        return exports.standings_csv(selectors.standings_table(division=self._division()))

    @extend_schema(
        operation_id="clubs_standings_deals_csv",
        responses={(200, "text/csv"): CSV_ONLY},
        summary="Every deal of the division as CSV",
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="deals.csv",
        url_name="deals-csv",
        renderer_classes=[CSVDownloadRenderer],
        pagination_class=None,
        filter_backends=[],
    )
    def deals_csv(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """Every deal of the division's games, streamed (all of them, not a page)."""
        return exports.deals_csv(self._division(), to_member=sees_names(self.club_access))

    @extend_schema(
        responses={200: DealRowSerializer(many=True)},
        parameters=[UPDATED_SINCE_OPENAPI],
    )
    @action(detail=True, methods=["get"])
    def deals(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Every deal of the division's games, a page at a time (``page``, ``page_size``);
        ``updated_since`` for the deals recorded or corrected since."""
        division = self._division()
        deals = (
            Deal.objects.filter(game__division=division, game__club=self.club)
            .select_related("game")
            .order_by("game_id", "number")
        )
        deals = UpdatedSinceFilter.apply(request, deals, "updated_at")
        page = self.paginate_queryset(deals)
        return self.get_paginated_response(DealRowSerializer(page, many=True).data)

    @extend_schema(methods=["GET"], request=None, responses={200: TiebreakersSerializer})
    @extend_schema(
        methods=["PUT"],
        request=TiebreakersSerializer,
        responses={200: TiebreakersSerializer, 400: ERROR_BODY},
    )
    @action(detail=True, methods=["get", "put"])
    def tiebreakers(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The tiebreakers after match points, in order; club admins change them."""
        division = self._division()
        if request.method == "PUT":
            serializer = TiebreakersSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            tiebreakers_set(
                club=self.club,
                division=division,
                tiebreakers=serializer.validated_data["tiebreakers"],
            )
            division = self._division()
        return Response({"tiebreakers": selectors.division_tiebreakers(division)})


class LeaderboardRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField(required=False)
    key = serializers.CharField(required=False, help_text="A partnership's player ids.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    ties = serializers.IntegerField()
    losses = serializers.IntegerField()
    win_pct = serializers.FloatField(allow_null=True)
    deals = serializers.IntegerField()
    points = serializers.IntegerField()
    points_per_deal = serializers.FloatField(allow_null=True)
    calls = serializers.IntegerField()
    calls_made = serializers.IntegerField()
    calls_set = serializers.IntegerField()
    made_pct = serializers.FloatField(allow_null=True)
    set_pct = serializers.FloatField(allow_null=True)
    melds = serializers.IntegerField()
    meld_deals = serializers.IntegerField()
    meld_pct = serializers.FloatField(allow_null=True)
    best_meld = serializers.IntegerField()
    reneges = serializers.IntegerField()
    rating = serializers.FloatField(required=False, allow_null=True)


class LeaderboardViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """Player and partnership leaderboards of a season (``?season=``) or all time, a page at
    a time (``page``, ``page_size``) with an ``ETag``, or whole as CSV (``players.csv/``,
    ``partnerships.csv/``)."""

    queryset = Division.objects.none()
    serializer_class = LeaderboardRowSerializer
    renderer_classes = RENDERERS

    def _season(self) -> Season | None:
        slug = self.request.query_params.get("season")
        if not slug:
            return None
        season = Season.objects.filter(club=self.club, slug=slug).first()
        if season is None:
            raise Http404(SEASON_NOT_FOUND)
        return season

    def _board(self, board: str) -> selectors.Leaderboard:
        select = {
            "players": selectors.player_leaderboard,
            "partnerships": selectors.partnership_leaderboard,
        }[board]
        return select(club=self.club, season=self._season(), to_member=sees_names(self.club_access))

    def _rows(self, board: str) -> list[dict[str, Any]]:
        return LeaderboardRowSerializer(self._board(board), many=True).data

    def _page(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        """The page asked for, read once per request (its ``ETag`` and its body share it):
        the board reads only the rows of that page (``selectors.Leaderboard``). Its version
        is the page itself and the board's length: a board's rows are sums over every
        counted game, with no one row or time that changes with each of them."""
        if wants_csv(request):
            return None  # the older ?format=csv: the whole board, not a page
        if not hasattr(self, "_read_page"):
            board = self.action  # "players" or "partnerships"
            page = self.paginate_queryset(self._board(board))
            self._read_page = LeaderboardRowSerializer(page, many=True).data
        count = self.paginator.page.paginator.count
        return (count, [tuple(row.items()) for row in self._read_page])

    def _paged(self, request: Request, board: str) -> HttpResponseBase:
        if wants_csv(request):
            return self._csv(board)
        self._page(request)
        return self.get_paginated_response(self._read_page)

    def _csv(self, board: str) -> HttpResponseBase:
        rows = self._rows(board)
        columns = list(rows[0]) if rows else list(LeaderboardRowSerializer().fields)
        season = self.request.query_params.get("season") or "all-time"
        return exports.records_csv(rows, columns, f"leaderboard-{board}-{season}.csv")

    @extend_schema(
        parameters=[SEASON_PARAMETER],
        responses={(200, "application/json"): LeaderboardRowSerializer(many=True)},
    )
    @action(detail=False, methods=["get"])
    @conditional(_page)
    def players(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """Players best first, a page at a time; send ``If-None-Match`` when polling."""
        return self._paged(request, "players")

    @extend_schema(
        parameters=[SEASON_PARAMETER],
        responses={(200, "application/json"): LeaderboardRowSerializer(many=True)},
    )
    @action(detail=False, methods=["get"])
    @conditional(_page)
    def partnerships(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """Partnerships best first, a page at a time; send ``If-None-Match`` when polling."""
        return self._paged(request, "partnerships")

    @extend_schema(parameters=[SEASON_PARAMETER])
    @csv_action(
        "players.csv",
        "players-csv",
        "The players' leaderboard as CSV",
        "clubs_leaderboards_players_csv",
        detail=False,
    )
    def players_csv(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """One row per player, best first, the columns of the JSON operation."""
        return self._csv("players")

    @extend_schema(parameters=[SEASON_PARAMETER])
    @csv_action(
        "partnerships.csv",
        "partnerships-csv",
        "The partnerships' leaderboard as CSV",
        "clubs_leaderboards_partnerships_csv",
        detail=False,
    )
    def partnerships_csv(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """One row per partnership, best first, the columns of the JSON operation."""
        return self._csv("partnerships")


class RatingChangeSerializer(serializers.ModelSerializer):
    rating = serializers.FloatField(source="ordinal", read_only=True)
    rating_before = serializers.FloatField(source="ordinal_before", read_only=True)

    class Meta:
        model = RatingChange
        fields = [
            "game",
            "at",
            "mu_before",
            "sigma_before",
            "mu",
            "sigma",
            "rating_before",
            "rating",
        ]
        read_only_fields = fields


class RatingSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()
    rating = serializers.FloatField(source="ordinal", read_only=True)

    class Meta:
        model = PlayerRating
        fields = ["player", "name", "mu", "sigma", "rating", "games", "updated_at"]
        read_only_fields = fields

    def get_name(self, rating: PlayerRating) -> str:
        access = getattr(self.context.get("view"), "club_access", None)
        return rating.player.shown_name(to_member=sees_names(access))


RATING_COLUMNS = list(RatingSerializer.Meta.fields)
RATING_CHANGE_COLUMNS = list(RatingChangeSerializer.Meta.fields)


class RatingViewSet(ClubScopedReadOnlyViewSet):
    """Players' OpenSkill ratings (mu, sigma; ``rating`` is mu - 3 sigma), best first; one
    player's (by player id) has its history. Each also as CSV (``.../ratings.csv/``,
    ``.../ratings/<player_id>/history.csv/``)."""

    queryset = PlayerRating.objects.none()
    serializer_class = RatingSerializer
    renderer_classes = RENDERERS
    # Through the player's own id, so an id out of range is simply "not found".
    lookup_field = "player__pk"
    lookup_url_kwarg = "player_id"

    def queryset_for_club(self, club):
        return PlayerRating.objects.filter(club=club).select_related("player").order_by("-mu")

    def _csv(self) -> HttpResponseBase:
        rows = self.get_serializer(self.get_queryset(), many=True).data
        return exports.records_csv(rows, RATING_COLUMNS, "ratings.csv")

    @extend_schema(responses={(200, "application/json"): RatingSerializer(many=True)})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if wants_csv(request):
            return self._csv()
        return super().list(request, *args, **kwargs)

    @extend_schema(responses={(200, "application/json"): RatingSerializer})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return super().retrieve(request, *args, **kwargs)

    def _changes(self):
        rating = self.get_object()
        return RatingChange.objects.filter(club=self.club, player_id=rating.player_id).order_by(
            "at", "id"
        )

    def _history(self) -> list[dict[str, Any]]:
        return RatingChangeSerializer(self._changes(), many=True).data

    @extend_schema(responses={(200, "application/json"): RatingChangeSerializer(many=True)})
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """The player's rating after each rated game, oldest first, a page at a time."""
        if wants_csv(request):
            return self.history_csv(request, *args, **kwargs)
        page = self.paginate_queryset(self._changes())
        return self.get_paginated_response(RatingChangeSerializer(page, many=True).data)

    @csv_action(
        "history.csv",
        "history-csv",
        "A player's rating history as CSV",
        "clubs_ratings_history_csv",
        detail=True,
    )
    def history_csv(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """One row per rated game, oldest first, the columns of the JSON operation."""
        player = self.get_object().player_id
        return exports.records_csv(
            self._history(), RATING_CHANGE_COLUMNS, f"rating-history-{player}.csv"
        )


class RatingsCSVViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """``.../ratings.csv/``: every rating of the club, best first (all of them, not a page)."""

    queryset = PlayerRating.objects.none()
    serializer_class = RatingSerializer
    renderer_classes = [CSVDownloadRenderer]
    pagination_class = None
    filter_backends: list = []

    @extend_schema(
        operation_id="clubs_ratings_csv",
        responses={(200, "text/csv"): CSV_ONLY},
        summary="Every player's rating as CSV",
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        ratings = PlayerRating.objects.filter(club=self.club).select_related("player")
        rows = self.get_serializer(ratings.order_by("-mu"), many=True).data
        return exports.records_csv(rows, RATING_COLUMNS, "ratings.csv")


# Request bodies' examples in the schema, by component (``<Serializer name>Request``; the
# PATCH variant uses the same). ``core.schema.postprocess_request_examples`` applies them.
REQUEST_EXAMPLES = {
    "TiebreakerOrderRequest": {
        "tiebreakers": ["head_to_head", "game_difference", "sets_inflicted"]
    },
}
