"""The ranking's API: ``GET /api/federations/<slug>/ranking/``, the ranking best first,
paged (``?page``, ``?page_size``) as every list of the API; private players as on the
page (anonymised, or left out, as the federation chose; named to its officers).

``GET/PATCH /api/federations/<slug>/interclub-teams/<team id>/``: where an inter-club team
plays its home fixtures and by which rules; changed by an admin of the organiser space
through the same service as the page (``interclub.interclub_team_home_set``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.core.errors import FORBIDDEN
from clabber_league.core.pagination import PagePagination
from clabber_league.cups.models import Cup
from clabber_league.federation.api import FederationScopedMixin
from clabber_league.leagues.models import Division, HouseRules, Venue
from clabber_league.rules import BUILTIN_RULESETS
from clabber_league.rules.errors import msg

from . import championship, interclub, selectors
from .interclub import NOT_SPACE, InterclubError
from .models import InterclubTeam

PRIVATE_NAME = "Private player"
NEEDS_ADMIN = gettext_noop("Only the federation's admins create a championship final.")
ONE_SOURCE = gettext_noop("Give one of cup, night or series.")
NO_SOURCE = gettext_noop("No such {kind} in the federation's member clubs.")


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


# --- championships -----------------------------------------------------------------------


class QualifierInSerializer(serializers.Serializer):
    """One qualifier: exactly one of ``cup``, ``night``, ``series`` (a member club's), and
    how many of its top players go through (a cup sends its winner: 1)."""

    cup = serializers.IntegerField(required=False)
    night = serializers.IntegerField(required=False, help_text="A club night (an event) id.")
    series = serializers.IntegerField(required=False)
    places = serializers.IntegerField(required=False, default=1)


class ChampionshipRequestSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    qualifiers = QualifierInSerializer(many=True, help_text="In seeding order.")
    rules = serializers.JSONField(
        required=False,
        help_text="A rule set's slug or house rules; a final of players: two- or three-handed.",
    )
    division = serializers.IntegerField(
        required=False, help_text="Cups of teams: the space's division their winners join."
    )
    format = serializers.ChoiceField(choices=Cup.Format.choices, default=Cup.Format.SINGLE)
    best_of = serializers.IntegerField(default=1)


class OriginSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    name = serializers.CharField()
    qualified_from = serializers.ChoiceField(
        choices=["cup", "night", "series", ""], source="kind", help_text="'' when not recorded."
    )
    source = serializers.CharField(help_text="The qualifier's name.")
    source_id = serializers.IntegerField(allow_null=True)
    club = serializers.CharField(source="club_slug", help_text="The qualifier's club.")
    place = serializers.IntegerField(allow_null=True, help_text="Its place in the qualifier.")


@extend_schema_serializer(component_name="ChampionshipFinal")
class ChampionshipSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="final.pk")
    name = serializers.CharField(source="final.name")
    club = serializers.CharField(source="final.club.slug", help_text="The organiser space.")
    entrant_kind = serializers.CharField(source="final.entrant_kind")
    entrants = OriginSerializer(many=True, source="origins")


def _final_body(federation: Any, pk: int) -> dict[str, Any]:
    final, origins = selectors.championship_final(federation, pk)
    return ChampionshipSerializer({"final": final, "origins": origins}).data


class ChampionshipListView(FederationScopedMixin, GenericAPIView):
    """A federation's championship finals; a federation admin seeds a new one from member
    clubs' qualifiers (cups, club nights, series of nights)."""

    # The schema's path parameters read the model here; the view reads its own rows.
    queryset = Cup.objects.none()

    serializer_class = ChampionshipSerializer
    pagination_class = None

    @extend_schema(
        operation_id="federation_championship_list",
        tags=["ranking"],
        responses={200: ChampionshipSerializer(many=True)},
    )
    def get(self, request: Request, federation_slug: str, *args: Any, **kwargs: Any) -> Response:
        finals = selectors.championship_finals(self.federation)
        return Response([_final_body(self.federation, f.pk) for f in finals])

    @extend_schema(
        operation_id="federation_championship_create",
        tags=["ranking"],
        request=ChampionshipRequestSerializer,
        responses={201: ChampionshipSerializer},
        examples=[
            OpenApiExample(
                "A final of two nights' best",
                value={
                    "name": "National final",
                    "rules": "clabber-2",
                    "qualifiers": [{"night": 41, "places": 2}, {"series": 7, "places": 2}],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, federation_slug: str, *args: Any, **kwargs: Any) -> Response:
        if not self.federation_access.is_admin:
            raise InterclubError.one("", NEEDS_ADMIN, kind=FORBIDDEN)
        body = ChampionshipRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        errors, qualifiers = [], []
        for index, row in enumerate(data["qualifiers"]):
            given = [k for k in ("cup", "night", "series") if row.get(k) is not None]
            if len(given) != 1:
                errors.append({"field": f"qualifiers[{index}]", "message": ONE_SOURCE})
                continue
            kind = given[0]
            source = selectors.qualifier_source(self.federation, kind, row[kind])
            if source is None:
                errors.append(
                    {"field": f"qualifiers[{index}].{kind}", "message": msg(NO_SOURCE, kind=kind)}
                )
                continue
            qualifiers.append(championship.QualifierIn(source, row["places"]))
        division = None
        if data.get("division") is not None:
            division = Division.objects.filter(
                pk=data["division"], club__organised_by__federation=self.federation
            ).first()
            if division is None:
                errors.append({"field": "division", "message": NOT_SPACE})
        if errors:
            raise InterclubError(errors)
        final = championship.championship_final_create(
            federation=self.federation,
            name=data["name"],
            qualifiers=qualifiers,
            division=division,
            rules=data.get("rules"),
            format=data["format"],
            best_of=data["best_of"],
            user=request.user,
        )
        return Response(_final_body(self.federation, final.pk), status=status.HTTP_201_CREATED)


class ChampionshipDetailView(FederationScopedMixin, GenericAPIView):
    """A championship final and where each entrant qualified from."""

    # The schema's path parameters read the model here; the view reads its own rows.
    queryset = Cup.objects.none()

    serializer_class = ChampionshipSerializer
    pagination_class = None

    @extend_schema(operation_id="federation_championship_detail", tags=["ranking"])
    def get(
        self, request: Request, federation_slug: str, pk: int, *args: Any, **kwargs: Any
    ) -> Response:
        try:
            return Response(_final_body(self.federation, pk))
        except Http404 as exc:
            raise NotFound(str(exc)) from exc


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

    # The schema's path parameters read the model here; the view reads its own row.
    queryset = InterclubTeam.objects.none()
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
