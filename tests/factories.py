"""factory-boy factories for the models; tests build rows with these, never by hand."""

import datetime

import factory
from django.contrib.auth import get_user_model

from clabber_league.clubs.models import Club, Membership, Player, Role
from clabber_league.leagues.models import Division, Season, Team, TeamMember
from clabber_league.scheduling.models import Fixture


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("table-talk-42")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Evansville"
    is_public = False


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.SCORER


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    slug = factory.Sequence(lambda n: f"season-{n}")
    start_date = datetime.date(2026, 9, 1)


class DivisionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Division

    season = factory.SubFactory(SeasonFactory)
    club = factory.SelfAttribute("season.club")
    name = factory.Sequence(lambda n: f"Division {n}")
    slug = factory.Sequence(lambda n: f"division-{n}")
    ruleset = "clabber"


class TeamFactory(factory.django.DjangoModelFactory):
    """A partnership of two players of the division's club."""

    class Meta:
        model = Team
        skip_postgeneration_save = True

    division = factory.SubFactory(DivisionFactory)
    club = factory.SelfAttribute("division.club")
    name = factory.Sequence(lambda n: f"Team {n}")

    @factory.post_generation
    def members(self, create: bool, extracted: int | None, **kwargs: object) -> None:
        if not create:
            return
        for position in range(extracted if extracted is not None else 2):
            TeamMember.objects.create(
                team=self, player=PlayerFactory(club=self.club), position=position
            )


class FixtureFactory(factory.django.DjangoModelFactory):
    """A fixture of round 1 between two teams of one division (pass ``home`` and ``away``,
    or get two new teams of a new division)."""

    class Meta:
        model = Fixture

    home = factory.SubFactory(TeamFactory)
    division = factory.SelfAttribute("home.division")
    club = factory.SelfAttribute("division.club")
    away = factory.SubFactory(TeamFactory, division=factory.SelfAttribute("..division"))
    round_number = 1
