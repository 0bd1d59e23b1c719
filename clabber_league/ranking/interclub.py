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

**A championship**: member clubs' qualifiers (cups, club nights, series of nights) feeding
a final in the space: ``championship.py``, which mirrors a cup's winning team here as an
inter-club team of the final's division (``interclub_team_register``) and a player through
``space_player``.

**Played at the home club's venue, by its rules.** An inter-club team may name a venue of
its home club (``InterclubTeam.venue``) and the rules its home fixtures are played by: a
``HouseRules`` row of its home club or a built-in rule set (``house_rules`` / ``ruleset``;
neither: the division's). Both are set at registration (``interclub_team_register``) or
later by the space's admins (``interclub_team_home_set``, the page and the API); a venue or
house rules of another club is refused, and so are rules for another number of sides than
the division's (a team fixture has two).

Scheduling and games sit below this app, so they learn it through two explicit hooks
(docs/ARCHITECTURE.md, "Hooks"), registered in ``RankingConfig.ready()``:

- ``scheduling.hooks.home_venues`` (:func:`interclub_home_venues`): the venue is **stored on
  the fixture** when it is written (a schedule generated, a fixture added by hand), its
  table left to the home club. Stored, because every page, the .ics feed, the table card
  and the reminders already show ``Fixture.venue``: they need no hook. A venue changed
  later moves the team's home fixtures not yet started (``interclub_team_home_set``).
- ``games.hooks.fixture_rules`` (:func:`interclub_fixture_rules`): the rules are **asked
  when a fixture's game starts** (``games.services.game_start``), not stored on the
  fixture: a home club that changes its rules changes them for every game not yet started,
  and a started game keeps the rules it records (``Game.rules``), which its scoring, the
  phone's offline entry, the score sheet and the results file all read.

A division whose fixtures are played by different rules ranks by match points and the
tiebreakers that do not compare points scored (see the standings' rule,
``standings.selectors.comparable_tiebreakers``): a 1,000-point target and a 1,500-point one
do not add up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from clabber_league.clubs.access import club_access
from clabber_league.clubs.models import Club, Membership, Player, Role
from clabber_league.clubs.services import player_get_or_create
from clabber_league.core.errors import CONFLICT, FORBIDDEN, ServiceError
from clabber_league.federation.models import (
    Federation,
    FederationClub,
    FederationPlayer,
    PlayerLink,
)
from clabber_league.federation.services.privacy import anonymous_name
from clabber_league.games import table_links
from clabber_league.games.models import Game, TableLink
from clabber_league.leagues.models import Division, HouseRules, Team, Venue
from clabber_league.leagues.services import team_register
from clabber_league.rules import RulesError, get_ruleset
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
VENUE_OTHER = gettext_noop("Choose a venue of {club}, the team's home club.")
HOUSE_RULES_OTHER = gettext_noop("Choose house rules of {club}, the team's home club.")
RULES_BOTH = gettext_noop("Choose house rules or a built-in rule set, not both.")
RULESET_UNKNOWN = gettext_noop("There is no built-in rule set {slug}.")
RULES_SIDES = gettext_noop(
    "These rules are played by {sides} sides; the division's fixtures are between two teams."
)
NOT_SPACE_ADMIN = gettext_noop("Only an admin of the organiser space may change its teams.")


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
    """The organiser space's row for a federation player ("Name (number)"; an erased
    player's anonymous name, which holds the number already), created and linked
    (approved) to the same number the first time."""
    if player.erased_at is not None or not player.name:
        name = anonymous_name(player.number)
    else:
        name = f"{player.name} ({player.number})"
    row = player_get_or_create(club=space.club, name=name[:120])
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
    venue: Venue | None = None,
    house_rules: HouseRules | None = None,
    ruleset: str = "",
) -> Team:
    """Register a team of ``home_club`` in a division of the organiser space, its players
    the federation's players (mirrored in the space); its home fixtures are played at
    ``venue`` and by ``house_rules`` or ``ruleset`` when given (of its home club)."""
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
    errors += _home_errors(division, home_club, venue, house_rules, ruleset)
    if errors:
        raise InterclubError(errors)
    rows = [space_player(space=space, player=p) for p in players]
    team = team_register(division=division, name=name, players=rows)
    InterclubTeam.objects.create(
        team=team,
        federation=federation,
        home_club=home_club,
        venue=venue,
        house_rules=house_rules,
        ruleset=ruleset,
    )
    return team


def _home_errors(
    division: Division,
    home_club: Club,
    venue: Venue | None,
    house_rules: HouseRules | None,
    ruleset: str,
) -> list[dict[str, Any]]:
    """What is wrong with a team's home venue and rules: another club's, both kinds of
    rules at once, an unknown rule set, or rules for another number of sides."""
    errors: list[dict[str, Any]] = []
    if venue is not None and venue.club_id != home_club.pk:
        errors.append({"field": "venue", "message": msg(VENUE_OTHER, club=home_club.name)})
    if house_rules is not None and house_rules.club_id != home_club.pk:
        errors.append(
            {"field": "house_rules", "message": msg(HOUSE_RULES_OTHER, club=home_club.name)}
        )
    if house_rules is not None and ruleset:
        errors.append({"field": "ruleset", "message": msg(RULES_BOTH)})
    if errors:
        return errors
    spec = house_rules.as_rules_data() if house_rules is not None else ruleset
    if not spec:
        return errors
    field = "house_rules" if house_rules is not None else "ruleset"
    try:
        sides = len(get_ruleset(spec).sides)
    except RulesError:
        return [{"field": field, "message": msg(RULESET_UNKNOWN, slug=ruleset)}]
    if sides != len(get_ruleset(division.rules_spec()).sides):
        errors.append({"field": field, "message": msg(RULES_SIDES, sides=sides)})
    return errors


@transaction.atomic
def interclub_team_home_set(
    *,
    team: Team,
    venue: Venue | None,
    house_rules: HouseRules | None = None,
    ruleset: str = "",
    user: Any = None,
) -> InterclubTeam:
    """Change where an inter-club team plays its home fixtures and by which rules: for an
    admin of the organiser space. Its home fixtures not yet started move to the new venue
    (their table left to the home club; no venue: placed nowhere until moved); games
    not yet started are played by the new rules, those started keep theirs."""
    row = (
        InterclubTeam.objects.select_for_update()
        .select_related("team__division", "home_club")
        .get(team=team)
    )
    if not space_admin(row=row, user=user):
        raise InterclubError.one("team", msg(NOT_SPACE_ADMIN), kind=FORBIDDEN)
    errors = _home_errors(row.team.division, row.home_club, venue, house_rules, ruleset)
    if errors:
        raise InterclubError(errors)
    before = row.venue_id
    row.venue, row.house_rules, row.ruleset = venue, house_rules, ruleset
    row.save(update_fields=["venue", "house_rules", "ruleset"])
    if venue is not None or before is not None:
        waiting = Fixture.objects.filter(
            home=row.team, status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED]
        ).exclude(pk__in=Game.objects.filter(fixture__home=row.team).values("fixture_id"))
        if venue is None:  # only those at the venue it leaves: a venue set by hand stays
            waiting = waiting.filter(venue_id=before)
        waiting.update(venue=venue, table=None, updated_at=timezone.now())
    return row


def space_admin(*, row: InterclubTeam, user: Any) -> bool:
    """Whether ``user`` is an admin of the organiser space the team plays in."""
    if not getattr(user, "is_authenticated", False):
        return False
    try:
        return club_access(slug=row.team.club.slug, user=user).can("manage")
    except Http404:
        return False


def rules_title(spec: str | dict[str, object] | None) -> str:
    """How a team's home rules read: the house rules' name, the rule set's title, or ""."""
    if not spec:
        return ""
    if isinstance(spec, dict):
        return str(spec.get("name") or spec.get("base") or "")
    try:
        return str(get_ruleset(spec).title)
    except RulesError:
        return spec


def interclub_home_venues(*, division: Division) -> list[tuple[int, Venue]]:
    """``scheduling.hooks.home_venues``: the division's inter-club teams that play their
    home fixtures at a venue of their home club."""
    rows = InterclubTeam.objects.filter(team__division=division, venue__isnull=False)
    return [(r.team_id, r.venue) for r in rows.select_related("venue")]


def interclub_fixture_rules(*, fixture: Fixture) -> list[str | dict[str, object]]:
    """``games.hooks.fixture_rules``: an inter-club fixture is played by its home team's
    rules, when that team names them."""
    row = (
        InterclubTeam.objects.filter(team_id=fixture.home_id).select_related("house_rules").first()
    )
    spec = row.rules_spec() if row is not None else None
    return [spec] if spec else []


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
