"""API of leagues: house rules, seasons, divisions and teams of a club.

The serializers check the shape of a request; the writes are ``leagues.services``', the
same the setup pages call, so the API accepts and refuses what the pages do. A refusal is
a ``ServiceError``, answered ``{"errors": [...]}`` by the exception handler.
"""

from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers

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
        fields = [
            "id",
            "name",
            "slug",
            "start_date",
            "end_date",
            "points_win",
            "points_tie",
            "points_loss",
        ]
        extra_kwargs = {"slug": {"required": False, "help_text": "Made from the name if left out."}}
        validators: list = []

    def create(self, validated_data: dict[str, Any]) -> Season:
        return services.season_create(club=self.context["club"], **validated_data)

    def update(self, instance: Season, validated_data: dict[str, Any]) -> Season:
        return services.season_update(season=instance, **validated_data)


class DivisionSerializer(ClubScopedSerializer):
    class Meta:
        model = Division
        fields = ["id", "season", "name", "slug", "ruleset", "house_rules", "games_per_fixture"]
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
        fields = ["id", "division", "name", "players"]
        validators: list = []

    def to_representation(self, instance: Team) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["players"] = selectors.team_players(team=instance)
        return data

    def create(self, validated_data: dict[str, Any]) -> Team:
        return services.team_register(**validated_data)

    def update(self, instance: Team, validated_data: dict[str, Any]) -> Team:
        return services.team_update(team=instance, **validated_data)


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
