"""The ranking's API: ``GET /api/federations/<slug>/ranking/``, the ranking best first,
paged (``?page``, ``?page_size``) as every list of the API; private players as on the
page (anonymised, or left out, as the federation chose; named to its officers).

``GET/PATCH /api/federations/<slug>/interclub-teams/<team id>/``: where an inter-club team
plays its home fixtures and by which rules; changed by an admin of the organiser space
through the same service as the page (``interclub.interclub_team_home_set``)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.core.pagination import PagePagination
from clabber_league.leagues.models import HouseRules, Venue
from clabber_league.rules import BUILTIN_RULESETS

from . import interclub, selectors
from .models import InterclubTeam

PRIVATE_NAME = "Private player"


@extend_schema_serializer(component_name="NationalRankingLine")
class RankingLineSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(help_text="'Private player' for a private profile.")
    number = serializers.CharField(help_text="Empty for a private profile.")
    rating = serializers.FloatField(help_text="mu - 3 sigma, the ranking's order.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    events = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Placing points, all events.")
    last_event_on = serializers.DateField(allow_null=True)


class FederationRankingView(GenericAPIView):
    """A federation's national ranking, best first."""

    permission_classes = [AllowAny]
    pagination_class = PagePagination
    serializer_class = RankingLineSerializer

    @extend_schema(operation_id="federation_ranking_list", tags=["ranking"])
    def get(self, request: Request, federation_slug: str, *args: Any, **kwargs: Any) -> Response:
        reader = selectors.federation_reader(slug=federation_slug, user=request.user)
        rows = self.paginate_queryset(selectors.ranking_rows(reader))
        start = self.paginator.page.start_index()
        lines = [selectors.ranking_line(reader, start + i, row) for i, row in enumerate(rows)]
        data = [
            {
                "position": ln.position,
                # The API stays English, whatever the reader's language.
                "name": ln.name if ln.named else PRIVATE_NAME,
                "number": ln.number,
                "rating": round(ln.rating, 4),
                "mu": round(ln.mu, 4),
                "sigma": round(ln.sigma, 4),
                "events": ln.events,
                "points": ln.points,
                "last_event_on": ln.last_event_on,
            }
            for ln in lines
        ]
        return self.get_paginated_response(self.get_serializer(data, many=True).data)


@extend_schema_serializer(component_name="InterclubTeamHome")
class InterclubHomeSerializer(serializers.Serializer):
    team = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    home_club = serializers.CharField(read_only=True, help_text="The home club's slug.")
    venue = serializers.PrimaryKeyRelatedField(
        queryset=Venue.objects.all(),
        allow_null=True,
        required=False,
        help_text="A venue of the home club; null: where the schedule places the fixtures.",
    )
    house_rules = serializers.PrimaryKeyRelatedField(
        queryset=HouseRules.objects.all(),
        allow_null=True,
        required=False,
        help_text="House rules of the home club; null: none.",
    )
    ruleset = serializers.ChoiceField(
        choices=["", *BUILTIN_RULESETS],
        required=False,
        allow_blank=True,
        help_text="A built-in rule set, unless house rules are set; both empty: the "
        "division's rules.",
    )


class InterclubTeamHomeView(GenericAPIView):
    """An inter-club team's home venue and rules; changed by the organiser space's admins."""

    permission_classes = [IsAuthenticated]
    serializer_class = InterclubHomeSerializer

    def _row(self, federation_slug: str, team_id: int) -> InterclubTeam:
        reader = selectors.federation_reader(slug=federation_slug, user=self.request.user)
        return get_object_or_404(
            InterclubTeam.objects.select_related("team__club", "team__division", "home_club"),
            team_id=team_id,
            federation=reader.federation,
        )

    def _answer(self, row: InterclubTeam) -> Response:
        return Response(
            {
                "team": row.team_id,
                "name": row.team.name,
                "home_club": row.home_club.slug,
                "venue": row.venue_id,
                "house_rules": row.house_rules_id,
                "ruleset": row.ruleset,
            }
        )

    @extend_schema(operation_id="federation_interclub_team_home", tags=["ranking"])
    def get(self, request: Request, federation_slug: str, team_id: int) -> Response:
        return self._answer(self._row(federation_slug, team_id))

    @extend_schema(
        operation_id="federation_interclub_team_home_update",
        tags=["ranking"],
        examples=[
            OpenApiExample(
                "At its home club's hall, by its house rules",
                value={"venue": 12, "house_rules": 3},
                request_only=True,
            )
        ],
    )
    def patch(self, request: Request, federation_slug: str, team_id: int) -> Response:
        row = self._row(federation_slug, team_id)
        given = self.get_serializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        # One kind of rules replaces the other unless both are sent (then refused).
        house_rules = data.get("house_rules", None if data.get("ruleset") else row.house_rules)
        ruleset = data.get("ruleset", "" if data.get("house_rules") else row.ruleset)
        row = interclub.interclub_team_home_set(
            team=row.team,
            venue=data.get("venue", row.venue),
            house_rules=house_rules,
            ruleset=ruleset,
            user=request.user,
        )
        return self._answer(row)
