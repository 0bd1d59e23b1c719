"""API of scheduling: a club's venues and fixtures."""

from django.db.models import QuerySet
from rest_framework import serializers

from clabber_league.clubs.api_base import ClubScopedModelViewSet
from clabber_league.clubs.serializers_base import ClubScopedSerializer

from .models import Fixture, Venue


class VenueSerializer(ClubScopedSerializer):
    class Meta:
        model = Venue
        fields = ["id", "name", "tables"]

    def validate_name(self, name: str) -> str:
        clash = Venue.objects.filter(club=self.context["club"], name=name)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError("The club already has a venue of this name.")
        return name


class FixtureSerializer(ClubScopedSerializer):
    class Meta:
        model = Fixture
        fields = [
            "id",
            "division",
            "round_number",
            "home",
            "away",
            "date",
            "venue",
            "table",
            "games_planned",
            "status",
        ]

    def validate(self, attrs):
        division = attrs.get("division", getattr(self.instance, "division", None))
        home = attrs.get("home", getattr(self.instance, "home", None))
        away = attrs.get("away", getattr(self.instance, "away", None))
        if home and away and home == away:
            raise serializers.ValidationError({"away": "A team cannot play itself."})
        for name, team in (("home", home), ("away", away)):
            if team and division and team.division_id != division.pk:
                raise serializers.ValidationError({name: "This team is not in the division."})
        return attrs


class VenueViewSet(ClubScopedModelViewSet):
    serializer_class = VenueSerializer
    queryset = Venue.objects.none()

    def queryset_for_club(self, club) -> QuerySet[Venue]:
        return club.venues.all()


class FixtureViewSet(ClubScopedModelViewSet):
    serializer_class = FixtureSerializer
    queryset = Fixture.objects.none()
    filterset_fields = ["division", "round_number", "status", "home", "away", "date"]

    def queryset_for_club(self, club) -> QuerySet[Fixture]:
        return club.fixtures.select_related("home", "away", "venue")
