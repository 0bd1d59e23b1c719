"""API of standings: a division's table and every deal (JSON or CSV), the tiebreakers,
the leaderboards and the ratings. Everything is read from the club in the URL.

The table and the deals are also CSV operations of their own (``.../standings.csv/``,
``.../deals.csv/``, ``text/csv``), exactly as the pages' downloads; the leaderboards and
ratings answer ``?format=csv`` as well.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import Http404
from django.http.response import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.clubs.api_base import ClubScopedMixin, ClubScopedReadOnlyViewSet
from clabber_league.clubs.privacy import sees_names
from clabber_league.core import csvsafe
from clabber_league.games.models import Deal
from clabber_league.leagues.models import Division, Season

from . import exports, selectors
from .models import TIEBREAKERS, PlayerRating, RatingChange
from .services.tiebreakers import tiebreakers_set


class CSVRenderer(BaseRenderer):
    """Lists of flat objects as CSV; the exports stream their own response instead."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        if data is None:
            return b""
        rows = data.get("results", [data]) if isinstance(data, dict) else list(data)
        if rows:
            columns = list(rows[0])
        else:  # no rows: still the header, from the view's serializer
            view = (renderer_context or {}).get("view")
            serializer = view.get_serializer_class() if view is not None else None
            columns = list(serializer().fields) if serializer is not None else ["empty"]
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
        writer.writerow({c: csvsafe.cell(c) for c in columns})
        for row in rows:
            writer.writerow(
                {k: csvsafe.cell(v) for k, v in row.items() if not isinstance(v, (dict, list))}
            )
        return out.getvalue().encode("utf-8")


RENDERERS = [*api_settings.DEFAULT_RENDERER_CLASSES, CSVRenderer]
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
    match_points = serializers.IntegerField()
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


class StandingsSerializer(serializers.Serializer):
    division = serializers.IntegerField()
    division_name = serializers.CharField()
    season = serializers.CharField()
    points = serializers.DictField(child=serializers.IntegerField())
    tiebreakers = serializers.ListField(child=serializers.CharField())
    explanation = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class DivisionSummarySerializer(serializers.ModelSerializer):
    season = serializers.CharField(source="season.name", read_only=True)

    class Meta:
        model = Division
        fields = ["id", "name", "season"]
        read_only_fields = fields


class TiebreakersSerializer(serializers.Serializer):
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAKERS)),
        help_text="In the order they are applied after match points.",
    )


class DealRowSerializer(serializers.ModelSerializer):
    game_status = serializers.CharField(source="game.status", read_only=True)
    score = serializers.DictField(source="scores", child=serializers.IntegerField(), read_only=True)
    running_totals = serializers.DictField(
        source="running", child=serializers.IntegerField(), read_only=True
    )

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

    @extend_schema(responses={200: StandingsSerializer})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        division = self._division()
        table = selectors.standings_table(division=division)
        body = {
            "division": division.pk,
            "division_name": division.name,
            "season": division.season.name,
            "points": table.points,
            "tiebreakers": table.tiebreakers,
            "explanation": table.explanation,
            "rows": exports.standings_rows(table),
        }
        return Response(StandingsSerializer(body).data)

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

    @extend_schema(responses={200: DealRowSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def deals(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Every deal of the division's games, a page at a time (``page``, ``page_size``)."""
        division = self._division()
        deals = (
            Deal.objects.filter(game__division=division, game__club=self.club)
            .select_related("game")
            .order_by("game_id", "number")
        )
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
    """Player and partnership leaderboards of a season (``?season=``) or all time."""

    queryset = Division.objects.none()
    serializer_class = LeaderboardRowSerializer
    renderer_classes = RENDERERS
    pagination_class = None

    def _season(self) -> Season | None:
        slug = self.request.query_params.get("season")
        if not slug:
            return None
        season = Season.objects.filter(club=self.club, slug=slug).first()
        if season is None:
            raise Http404(SEASON_NOT_FOUND)
        return season

    @extend_schema(
        parameters=[SEASON_PARAMETER], responses={200: LeaderboardRowSerializer(many=True)}
    )
    @action(detail=False, methods=["get"])
    def players(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        rows = selectors.player_leaderboard(
            club=self.club, season=self._season(), to_member=sees_names(self.club_access)
        )
        return Response(LeaderboardRowSerializer(rows, many=True).data)

    @extend_schema(
        parameters=[SEASON_PARAMETER], responses={200: LeaderboardRowSerializer(many=True)}
    )
    @action(detail=False, methods=["get"])
    def partnerships(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        rows = selectors.partnership_leaderboard(
            club=self.club, season=self._season(), to_member=sees_names(self.club_access)
        )
        return Response(LeaderboardRowSerializer(rows, many=True).data)


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


class RatingViewSet(ClubScopedReadOnlyViewSet):
    """Players' OpenSkill ratings (mu, sigma; ``rating`` is mu - 3 sigma), best first; one
    player's (by player id) has its history."""

    queryset = PlayerRating.objects.none()
    serializer_class = RatingSerializer
    # Through the player's own id, so an id out of range is simply "not found".
    lookup_field = "player__pk"
    lookup_url_kwarg = "player"

    def queryset_for_club(self, club):
        return PlayerRating.objects.filter(club=club).select_related("player").order_by("-mu")

    @extend_schema(responses={200: RatingChangeSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def history(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        rating = self.get_object()
        changes = RatingChange.objects.filter(club=self.club, player_id=rating.player_id).order_by(
            "at", "id"
        )
        return Response(RatingChangeSerializer(changes, many=True).data)


# Request bodies' examples in the schema, by component (``<Serializer name>Request``; the
# PATCH variant uses the same). ``core.schema.postprocess_request_examples`` applies them.
REQUEST_EXAMPLES = {
    "TiebreakersRequest": {"tiebreakers": ["head_to_head", "game_difference", "sets_inflicted"]},
}
