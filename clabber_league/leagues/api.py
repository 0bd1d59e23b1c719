"""API of leagues: house rules, seasons, divisions and teams of a club."""

from django.db import transaction
from django.db.models import QuerySet
from rest_framework import serializers

from clabber_league.clubs.api_base import ClubScopedModelViewSet
from clabber_league.clubs.models import Player
from clabber_league.clubs.serializers_base import ClubScopedSerializer
from clabber_league.rules import RulesError, get_ruleset

from .models import Division, HouseRules, Season, Team, TeamMember

TEAM_SIZE = "A team in {ruleset} has {size} player(s); got {given}."


class HouseRulesSerializer(ClubScopedSerializer):
    class Meta:
        model = HouseRules
        fields = ["id", "name", "base", "options", "description"]

    def validate(self, attrs):
        base = attrs.get("base", getattr(self.instance, "base", None))
        options = attrs.get("options", getattr(self.instance, "options", {}))
        try:
            get_ruleset(base, options)
        except RulesError as exc:
            fields = {("base" if e["field"] == "ruleset" else e["field"]) for e in exc.errors}
            raise serializers.ValidationError(
                {f: [e["message"] for e in exc.errors] for f in fields}
            ) from exc
        return attrs


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

    def validate(self, attrs):
        start = attrs.get("start_date", getattr(self.instance, "start_date", None))
        end = attrs.get("end_date", getattr(self.instance, "end_date", None))
        if start and end and end < start:
            raise serializers.ValidationError(
                {"end_date": "The season cannot end before it starts."}
            )
        slug = attrs.get("slug")
        if slug:
            clash = Season.objects.filter(club=self.context["club"], slug=slug)
            if self.instance is not None:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise serializers.ValidationError(
                    {"slug": "The club already has a season with this slug."}
                )
        return attrs


class DivisionSerializer(ClubScopedSerializer):
    class Meta:
        model = Division
        fields = ["id", "season", "name", "slug", "ruleset", "house_rules", "games_per_fixture"]

    def validate_ruleset(self, value: str) -> str:
        try:
            get_ruleset(value)
        except RulesError as exc:
            raise serializers.ValidationError([e["message"] for e in exc.errors]) from exc
        return value

    def validate(self, attrs):
        season = attrs.get("season", getattr(self.instance, "season", None))
        slug = attrs.get("slug")
        if season and slug:
            clash = Division.objects.filter(season=season, slug=slug)
            if self.instance is not None:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise serializers.ValidationError(
                    {"slug": "The season already has a division with this slug."}
                )
        return attrs


class TeamSerializer(ClubScopedSerializer):
    players = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=Player.objects.all(),
        help_text="The team's players in seating order (partners of a partnership).",
    )

    class Meta:
        model = Team
        fields = ["id", "division", "name", "players"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["players"] = [m.player_id for m in instance.members.all()]
        return data

    def validate(self, attrs):
        division = attrs.get("division", getattr(self.instance, "division", None))
        name = attrs.get("name", getattr(self.instance, "name", None))
        players = attrs.get("players")
        if division and name:
            clash = Team.objects.filter(division=division, name=name)
            if self.instance is not None:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise serializers.ValidationError(
                    {"name": "The division already has a team of this name."}
                )
        if players is not None:
            if len(set(players)) != len(players):
                raise serializers.ValidationError(
                    {"players": "A player can be in a team only once."}
                )
            if division is not None:
                ruleset = get_ruleset(division.rules_spec())
                size = ruleset.players_per_side
                if len(players) != size:
                    message = TEAM_SIZE.format(ruleset=ruleset.slug, size=size, given=len(players))
                    raise serializers.ValidationError({"players": message})
        return attrs

    @transaction.atomic
    def create(self, validated_data):
        players = validated_data.pop("players")
        team = super().create(validated_data)
        TeamMember.objects.bulk_create(
            TeamMember(team=team, player=p, position=i) for i, p in enumerate(players)
        )
        return team

    @transaction.atomic
    def update(self, instance, validated_data):
        players = validated_data.pop("players", None)
        team = super().update(instance, validated_data)
        if players is not None:
            team.members.all().delete()
            TeamMember.objects.bulk_create(
                TeamMember(team=team, player=p, position=i) for i, p in enumerate(players)
            )
        return team


class HouseRulesViewSet(ClubScopedModelViewSet):
    serializer_class = HouseRulesSerializer
    queryset = HouseRules.objects.none()

    def queryset_for_club(self, club) -> QuerySet[HouseRules]:
        return club.house_rules.order_by("name")


class SeasonViewSet(ClubScopedModelViewSet):
    serializer_class = SeasonSerializer
    queryset = Season.objects.none()

    def queryset_for_club(self, club) -> QuerySet[Season]:
        return club.seasons.all()


class DivisionViewSet(ClubScopedModelViewSet):
    serializer_class = DivisionSerializer
    queryset = Division.objects.none()
    filterset_fields = ["season", "ruleset"]

    def queryset_for_club(self, club) -> QuerySet[Division]:
        return club.divisions.select_related("season", "house_rules")


class TeamViewSet(ClubScopedModelViewSet):
    serializer_class = TeamSerializer
    queryset = Team.objects.none()
    filterset_fields = ["division"]

    def queryset_for_club(self, club) -> QuerySet[Team]:
        return club.teams.prefetch_related("members")


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
    },
    "TeamRequest": {"division": 1, "name": "Aces", "players": [1, 2]},
}
