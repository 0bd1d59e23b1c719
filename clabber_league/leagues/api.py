"""API of leagues: house rules, seasons, divisions and teams of a club.

The serializers check the shape of a request; the writes are ``leagues.services``', the
same the setup pages call, so the API accepts and refuses what the pages do. A refusal is
a ``ServiceError``, answered ``{"errors": [...]}`` by the exception handler.
"""

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.clubs.api_base import ClubScopedModelViewSet
from clabber_league.clubs.models import Player
from clabber_league.clubs.serializers_base import ClubScopedSerializer

from . import selectors, services
from .models import Division, HouseRules, Season, Team


class HouseRulesSerializer(ClubScopedSerializer):
    class Meta:
        model = HouseRules
        fields = ["id", "name", "base", "options", "description"]
        validators: list = []  # the service checks the name, with the club's other rules

    def create(self, validated_data: dict[str, Any]) -> HouseRules:
        return services.house_rules_save(club=self.context["club"], **validated_data)

    def update(self, instance: HouseRules, validated_data: dict[str, Any]) -> HouseRules:
        current = {
            "name": instance.name,
            "base": instance.base,
            "options": instance.options,
            "description": instance.description,
        }
        return services.house_rules_save(
            club=self.context["club"], house_rules=instance, **{**current, **validated_data}
        )


class SeasonSerializer(ClubScopedSerializer):
    class Meta:
        model = Season
        fields = ["id", *services.SEASON_FIELDS]  # what season_create/season_update take
        extra_kwargs = {"slug": {"required": False, "help_text": "Made from the name if left out."}}
        validators: list = []

    def create(self, validated_data: dict[str, Any]) -> Season:
        return services.season_create(club=self.context["club"], **validated_data)

    def update(self, instance: Season, validated_data: dict[str, Any]) -> Season:
        return services.season_update(season=instance, **validated_data)


class DivisionSerializer(ClubScopedSerializer):
    class Meta:
        model = Division
        fields = ["id", *services.DIVISION_FIELDS]  # what division_create/division_update take
        extra_kwargs = {"slug": {"required": False, "help_text": "Made from the name if left out."}}
        validators: list = []

    def create(self, validated_data: dict[str, Any]) -> Division:
        return services.division_create(**validated_data)

    def update(self, instance: Division, validated_data: dict[str, Any]) -> Division:
        return services.division_update(division=instance, **validated_data)


class TeamSerializer(ClubScopedSerializer):
    players = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=Player.objects.all(),
        help_text="The team's players in seating order (partners of a partnership).",
    )

    class Meta:
        model = Team
        fields = ["id", "division", "name", "players", "withdrawn_on", "carried_points"]
        read_only_fields = ["withdrawn_on"]
        validators: list = []

    def to_representation(self, instance: Team) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["players"] = selectors.team_players(team=instance)
        return data

    def create(self, validated_data: dict[str, Any]) -> Team:
        return services.team_register(**validated_data)

    def update(self, instance: Team, validated_data: dict[str, Any]) -> Team:
        return services.team_update(team=instance, **validated_data)


class TeamWithdrawSerializer(serializers.Serializer):
    on = serializers.DateField(
        help_text="The day the team withdraws: its fixtures from then on without a result "
        "become walkovers or are removed, as the division's withdrawal_policy says."
    )


class HouseRulesViewSet(ClubScopedModelViewSet):
    serializer_class = HouseRulesSerializer
    queryset = HouseRules.objects.none()

    def queryset_for_club(self, club) -> QuerySet[HouseRules]:
        return selectors.house_rules_list(club=club)


class SeasonViewSet(ClubScopedModelViewSet):
    serializer_class = SeasonSerializer
    queryset = Season.objects.none()

    def queryset_for_club(self, club) -> QuerySet[Season]:
        return selectors.season_list(club=club)


class DivisionViewSet(ClubScopedModelViewSet):
    serializer_class = DivisionSerializer
    queryset = Division.objects.none()
    filterset_fields = ["season", "ruleset"]

    def queryset_for_club(self, club) -> QuerySet[Division]:
        return selectors.division_list(club=club)


class TeamViewSet(ClubScopedModelViewSet):
    serializer_class = TeamSerializer
    queryset = Team.objects.none()
    filterset_fields = ["division"]

    def queryset_for_club(self, club) -> QuerySet[Team]:
        return selectors.team_list(club=club)

    @extend_schema(
        request=TeamWithdrawSerializer,
        responses={200: TeamSerializer},
        summary="Withdraw a team from its division",
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def withdraw(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Its results so far stand; its later fixtures become walkovers to the opponents
        or are removed, as the division chooses (``withdrawal_policy``)."""
        team = self.get_object()
        body = TeamWithdrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        team = services.team_withdraw(team=team, on=body.validated_data["on"], user=request.user)
        return Response(TeamSerializer(team, context=self.get_serializer_context()).data)


# Request bodies' examples in the schema, by component (``<Serializer name>Request``; the
# PATCH variant uses the same). ``core.schema.postprocess_request_examples`` applies them.
REQUEST_EXAMPLES = {
    "HouseRulesRequest": {
        "name": "Thursday rules",
        "base": "clabber",
        "options": {"target": 300},
        "description": "A shorter game on weeknights.",
    },
    "SeasonRequest": {
        "name": "Winter 2027",
        "slug": "winter-2027",
        "start_date": "2027-01-04",
        "end_date": "2027-04-26",
        "points_win": 2,
        "points_tie": 1,
        "points_loss": 0,
    },
    "DivisionRequest": {
        "season": 1,
        "name": "Premier",
        "slug": "premier",
        "ruleset": "clabber",
        "house_rules": None,
        "games_per_fixture": 3,
        "withdrawal_policy": "walkover",
    },
    "TeamRequest": {"division": 1, "name": "Aces", "players": [1, 2]},
    "TeamWithdrawRequest": {"on": "2027-02-15"},
}
