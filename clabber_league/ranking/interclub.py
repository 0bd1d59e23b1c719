"""Inter-club competitions: leagues and cups whose teams come from different clubs, with
the federation as organiser (issue 34).

The design reuses the clubs' machinery unchanged. A federation has an **organiser space**
(:class:`models.OrganiserSpace`): a ``clubs.Club`` row the federation owns, whose seasons,
divisions, fixtures and cups are the competition's, so scheduling, standings and cups work
as in any club. A team of the space (:class:`models.InterclubTeam`) names its **home club**,
a member club; its players are the federation's players, each mirrored in the space by a
``Player`` row named "Name (number)" and linked (approved) to the same federation number,
so their games count in the national ranking as one person's.

**Entering a fixture's games at either club.** A scorer (or admin) of either team's home
club may enter the fixture: ``interclub_fixture_enter`` checks their role *in their own
club* and hands them the fixture's table link (``games.table_links``), the existing grant
that lets one phone score one game and nothing else. Nobody gets a role in the organiser
space for it; the space's own admins (the federation's) manage the competition.

**A championship**: qualifiers (each member club's cup) feeding a final in the space,
seeded in the qualifiers' order from their champions (``championship_final_create``).
A qualifier of teams sends its winning team (mirrored as an inter-club team of the final's
division); one of players, its winning player.

Known limit: a division's games are played by the division's rules
(``games.services.game_start`` takes no rules for a league game), so an inter-club
division plays the rules the organiser chose for it; the home club's own house rules per
fixture would need ``game_start`` to accept a fixture's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from clabber_league.clubs.access import club_access
from clabber_league.clubs.models import Club, Membership, Player, Role
from clabber_league.clubs.services import player_get_or_create
from clabber_league.core.errors import CONFLICT, FORBIDDEN, ServiceError
from clabber_league.cups.models import Cup
from clabber_league.federation.models import (
    Federation,
    FederationClub,
    FederationPlayer,
    PlayerLink,
)
from clabber_league.games import table_links
from clabber_league.games.models import Game, TableLink
from clabber_league.leagues.models import Division, Team
from clabber_league.leagues.services import team_register
from clabber_league.rules.errors import msg
from clabber_league.scheduling.models import Fixture

from .models import InterclubTeam, OrganiserSpace

SPACE_EXISTS = gettext_noop("The federation has its organiser space already.")
NOT_SPACE = gettext_noop("Choose a division of the federation's organiser space.")
HOME_NOT_MEMBER = gettext_noop("Choose an active member club of the federation as home club.")
PLAYER_OTHER = gettext_noop("Player {number} is not a player of this federation.")
NOT_INTERCLUB = gettext_noop("This fixture is not an inter-club fixture.")
NOT_SCORER = gettext_noop("Only a scorer of {home} or {away} may enter this fixture's games.")
QUALIFIER_OTHER = gettext_noop("The cup {name} is not a cup of a member club.")
QUALIFIER_OPEN = gettext_noop("The qualifier {name} has no winner yet.")
QUALIFIERS_FEW = gettext_noop("A final needs at least two qualifiers.")
WINNER_UNLINKED = gettext_noop(
    "The winner of {name} has no federation number: link them before the final is seeded."
)


class InterclubError(ServiceError):
    """An inter-club competition's write refused."""


@transaction.atomic
def organiser_space_create(*, federation: Federation, user: Any = None) -> OrganiserSpace:
    """Give the federation its organiser space: a public club row of its own, approved
    (the federation is known to the operator), whose admins are the federation's admins."""
    if OrganiserSpace.objects.filter(federation=federation).exists():
        raise InterclubError.one("federation", SPACE_EXISTS, kind=CONFLICT)
    slug = slugify(f"{federation.slug}-competitions")[:60]
    club = Club.objects.create(
        name=f"{federation.name} competitions"[:120],
        slug=slug,
        is_public=federation.is_public,
        country=federation.country,
        is_approved=True,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    admins = federation.officers.filter(role="admin").values_list("user_id", flat=True)
    Membership.objects.bulk_create(
        [Membership(club=club, user_id=uid, role=Role.ADMIN) for uid in admins]
    )
    return OrganiserSpace.objects.create(federation=federation, club=club)


def space_player(*, space: OrganiserSpace, player: FederationPlayer) -> Player:
    """The organiser space's row for a federation player ("Name (number)"), created and
    linked (approved) to the same number the first time."""
    row = player_get_or_create(club=space.club, name=f"{player.name} ({player.number})"[:120])
    PlayerLink.objects.get_or_create(
        federation_id=space.federation_id,
        player=row,
        defaults={"federation_player": player, "status": PlayerLink.Status.APPROVED},
    )
    return row


@transaction.atomic
def interclub_team_register(
    *,
    federation: Federation,
    division: Division,
    name: str,
    home_club: Club,
    players: Sequence[FederationPlayer],
) -> Team:
    """Register a team of ``home_club`` in a division of the organiser space, its players
    the federation's players (mirrored in the space)."""
    space = OrganiserSpace.objects.filter(federation=federation).first()
    errors = []
    if space is None or division.club_id != space.club_id:
        errors.append({"field": "division", "message": NOT_SPACE})
    member = FederationClub.objects.filter(
        federation=federation, club=home_club, active=True
    ).exists()
    if not member:
        errors.append({"field": "home_club", "message": HOME_NOT_MEMBER})
    for player in players:
        if player.federation_id != federation.pk:
            errors.append({"field": "players", "message": msg(PLAYER_OTHER, number=player.number)})
    if errors:
        raise InterclubError(errors)
    rows = [space_player(space=space, player=p) for p in players]
    team = team_register(division=division, name=name, players=rows)
    InterclubTeam.objects.create(team=team, federation=federation, home_club=home_club)
    return team


def fixture_home_clubs(fixture: Fixture) -> tuple[Club, Club] | None:
    """The home clubs of a fixture's two teams, or None when it is not inter-club."""
    rows = {
        r.team_id: r.home_club
        for r in InterclubTeam.objects.filter(
            team_id__in=[fixture.home_id, fixture.away_id]
        ).select_related("home_club")
    }
    if fixture.home_id not in rows or fixture.away_id not in rows:
        return None
    return rows[fixture.home_id], rows[fixture.away_id]


def interclub_fixture_may_enter(*, fixture: Fixture, user: Any) -> bool:
    """Whether ``user`` scores at either team's home club (their role there)."""
    clubs = fixture_home_clubs(fixture)
    if clubs is None or not getattr(user, "is_authenticated", False):
        return False
    for club in clubs:
        try:
            if club_access(slug=club.slug, user=user).can("score"):
                return True
        except Http404:  # a club they may not read: not theirs
            continue
    return False


@transaction.atomic
def interclub_fixture_enter(*, fixture: Fixture, user: Any) -> TableLink:
    """The link that lets a scorer of either home club enter the fixture's game: its
    game's live link when the game has started, else the fixture's waiting link (issued
    the first time). Refused (403) to anyone else."""
    clubs = fixture_home_clubs(fixture)
    if clubs is None:
        raise InterclubError.one("fixture", NOT_INTERCLUB)
    if not interclub_fixture_may_enter(fixture=fixture, user=user):
        raise InterclubError.one(
            "fixture", msg(NOT_SCORER, home=clubs[0].name, away=clubs[1].name), kind=FORBIDDEN
        )
    game = (
        Game.objects.filter(
            fixture=fixture, status__in=[Game.Status.IN_PROGRESS, Game.Status.FINISHED]
        )
        .order_by("number", "pk")
        .first()
    )
    if game is not None:
        link = table_links.table_link_ensure(game=game, user=user)
        if link is not None:
            return link
    link = table_links.fixture_link_live(fixture=fixture)
    return link or table_links.fixture_link_issue(fixture=fixture, user=user)


def championship_final_create(
    *,
    federation: Federation,
    name: str,
    qualifiers: Sequence[Any],
    division: Division | None = None,
    rules: Any = None,
    user: Any = None,
    **options: Any,
) -> Cup:
    """The federation's final, a cup of its organiser space seeded from the qualifiers in
    the order given: member clubs' cups (their champions), club nights and series of
    nights (their top N). Built in ``championship.py``."""
    from .championship import championship_final_create as create

    return create(
        federation=federation,
        name=name,
        qualifiers=qualifiers,
        division=division,
        rules=rules,
        user=user,
        **options,
    )
