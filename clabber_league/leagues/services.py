"""Setting up a league: house rules, seasons, divisions, teams and venues (writes).

The pages (``scheduling.views``: the season and division setup pages) and the API
(``leagues.api``) both call these functions, so they accept and refuse the same things.
A refusal is a :class:`LeagueError` (``core.errors.ServiceError``) naming the field; the
API's exception handler turns it into ``{"errors": [...]}``, the pages show it beside the
form's fields. Nothing is written when one is raised.

A venue's tables are where the schedule (``scheduling``, the layer above) places fixtures.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player
from clabber_league.clubs.services import player_get_or_create, player_name_clean
from clabber_league.core.errors import CONFLICT, ServiceError, conflict
from clabber_league.core.i18n import local_format
from clabber_league.rules import RulesError, get_ruleset

from .hooks import team_withdrawn
from .models import Division, HouseRules, Season, Team, TeamMember, Venue

SEASON_DATES = _("The season cannot end before it starts.")
SEASON_SLUG_TAKEN = _("The club already has a season with this slug.")
POINTS_ORDER = _("A win must be worth at least a tie, and a tie at least a loss.")
GAMES_PER_FIXTURE = _("A fixture is 1 to 9 games.")
DIVISION_SLUG_TAKEN = _("The season already has a division with this slug.")
UNKNOWN_RULESET = _("No such rule set.")
HOUSE_RULES_OTHER_CLUB = _("These house rules are not the club's.")
HOUSE_RULES_NAME_TAKEN = _("The club already has house rules of this name.")
RULES_FIXED = _("Games have been played in this division: its rule set can no longer change.")
SEASON_OTHER_CLUB = _("This season is not one of the club's.")
DIVISION_OTHER_CLUB = _("This division is not one of the club's.")
TEAM_NAME_TAKEN = _("The division already has a team of this name.")
TEAM_SIZE = _("A team in {ruleset} has {size} player(s); got {given}.")
PLAYER_TWICE = _("A player can be in a team only once.")
PLAYER_OTHER_CLUB = _("This player is not a member of the club.")
NAME_EMPTY = _("Give a name.")
WITHDRAWAL_POLICY = _("Choose walkover or remove.")
TEAM_WITHDRAWN_ALREADY = _("{team} withdrew on {on}.")
WITHDRAW_BEFORE_SEASON = _("A team cannot withdraw before its season starts ({start}).")
MERGE_SAME_TEAM = _(
    "{source} and {target} both play in {team}: one person cannot fill two places of a team."
)
OPTIONS_OBJECT = _("The options are an object of option names and values.")
CARRIED_POINTS_RANGE = _("Carried-over points are a whole number from -9999 to 9999.")


def _date(day: dt.date) -> str:
    """A date in a message, in the reader's order (the API's English: 1 Oct 2026)."""
    return date_format(day, local_format("j M Y"))


class LeagueError(ServiceError):
    """A rejected league-setup write (``core.errors.ServiceError``)."""


def _unique_slug(base: str, taken: Iterable[str]) -> str:
    taken = set(taken)
    slug = (slugify(base) or "season")[:50]
    candidate, n = slug, 2
    while candidate in taken:
        candidate = f"{slug}-{n}"
        n += 1
    return candidate


def _name_errors(name: str | None) -> list[dict[str, str]]:
    return [{"field": "name", "message": str(NAME_EMPTY)}] if not (name or "").strip() else []


# --- house rules ------------------------------------------------------------------------------


def _ruleset_errors(base: str, options: Mapping[str, Any]) -> list[dict[str, str]]:
    """The rules engine's refusal of a base rule set and options, with the API's names."""
    try:
        get_ruleset(base, dict(options))
    except RulesError as exc:
        fields = {"ruleset": "base"}  # the engine's name for it, the API's
        return [
            {"field": fields.get(e["field"], e["field"]), "message": e["message"]}
            for e in exc.errors
        ]
    return []


def house_rules_save(
    *,
    club: Club,
    name: str,
    base: str,
    options: Mapping[str, Any] | None = None,
    description: str = "",
    house_rules: HouseRules | None = None,
) -> HouseRules:
    """Create the club's house rules, or change ``house_rules``: a built-in ``base`` rule
    set and the ``options`` that differ, checked by the rules engine."""
    if options is not None and not isinstance(options, Mapping):
        raise LeagueError.one("options", str(OPTIONS_OBJECT))
    options = dict(options or {})
    errors = _name_errors(name) + _ruleset_errors(base, options)
    clash = HouseRules.objects.filter(club=club, name=name)
    if house_rules is not None:
        clash = clash.exclude(pk=house_rules.pk)
    if clash.exists():
        errors.append(conflict("name", str(HOUSE_RULES_NAME_TAKEN)))
    if errors:
        raise LeagueError(errors)
    rules = house_rules or HouseRules(club=club)
    rules.name, rules.base, rules.options, rules.description = name, base, options, description
    rules.save()
    return rules


# --- seasons ----------------------------------------------------------------------------------


def _season_errors(
    start_date: dt.date, end_date: dt.date | None, win: int, tie: int, loss: int
) -> list[dict[str, str]]:
    errors = []
    if end_date and end_date < start_date:
        errors.append({"field": "end_date", "message": str(SEASON_DATES)})
    if not win >= tie >= loss >= 0:
        errors.append({"field": "points_win", "message": str(POINTS_ORDER)})
    return errors


def season_create(
    *,
    club: Club,
    name: str,
    start_date: dt.date,
    end_date: dt.date | None = None,
    points_win: int = 2,
    points_tie: int = 1,
    points_loss: int = 0,
    slug: str | None = None,
) -> Season:
    """A season of the club; its slug is made from the name unless given."""
    errors = _name_errors(name) + _season_errors(
        start_date, end_date, points_win, points_tie, points_loss
    )
    taken = Season.objects.filter(club=club).values_list("slug", flat=True)
    if slug and Season.objects.filter(club=club, slug=slug).exists():
        errors.append(conflict("slug", str(SEASON_SLUG_TAKEN)))
    if errors:
        raise LeagueError(errors)
    return Season.objects.create(
        club=club,
        name=name,
        slug=slug or _unique_slug(name, taken),
        start_date=start_date,
        end_date=end_date,
        points_win=points_win,
        points_tie=points_tie,
        points_loss=points_loss,
    )


SEASON_FIELDS = (
    "name",
    "slug",
    "start_date",
    "end_date",
    "points_win",
    "points_tie",
    "points_loss",
)


def season_update(*, season: Season, **changes: Any) -> Season:
    """Change any of a season's ``SEASON_FIELDS``; the others keep their values. The
    points apply to every match of the season, already played or not."""
    unknown = set(changes) - set(SEASON_FIELDS)
    if unknown:
        raise TypeError(f"season_update() got unexpected fields {sorted(unknown)}")
    after = {name: changes.get(name, getattr(season, name)) for name in SEASON_FIELDS}
    errors = _name_errors(after["name"]) + _season_errors(
        after["start_date"],
        after["end_date"],
        after["points_win"],
        after["points_tie"],
        after["points_loss"],
    )
    if (
        after["slug"] != season.slug
        and Season.objects.filter(club_id=season.club_id, slug=after["slug"]).exists()
    ):
        errors.append(conflict("slug", str(SEASON_SLUG_TAKEN)))
    if errors:
        raise LeagueError(errors)
    for name, value in after.items():
        setattr(season, name, value)
    season.save(update_fields=list(SEASON_FIELDS))
    return season


# --- divisions --------------------------------------------------------------------------------


def _division_errors(
    *,
    club_id: int,
    ruleset: str,
    house_rules: HouseRules | None,
    games_per_fixture: int,
) -> list[dict[str, str]]:
    errors = []
    if house_rules is not None and house_rules.club_id != club_id:
        errors.append({"field": "house_rules", "message": str(HOUSE_RULES_OTHER_CLUB)})
    try:
        get_ruleset(ruleset)
    except RulesError:
        errors.append({"field": "ruleset", "message": str(UNKNOWN_RULESET)})
    if not 1 <= games_per_fixture <= 9:
        errors.append({"field": "games_per_fixture", "message": str(GAMES_PER_FIXTURE)})
    return errors


def division_create(
    *,
    season: Season,
    name: str,
    ruleset: str = "clabber",
    games_per_fixture: int = 1,
    house_rules: HouseRules | None = None,
    slug: str | None = None,
) -> Division:
    """A division of ``season`` playing a built-in ``ruleset`` or the club's
    ``house_rules``; its slug is made from the name unless given."""
    errors = _name_errors(name) + _division_errors(
        club_id=season.club_id,
        ruleset=ruleset,
        house_rules=house_rules,
        games_per_fixture=games_per_fixture,
    )
    if slug and Division.objects.filter(season=season, slug=slug).exists():
        errors.append(conflict("slug", str(DIVISION_SLUG_TAKEN)))
    if errors:
        raise LeagueError(errors)
    taken = Division.objects.filter(season=season).values_list("slug", flat=True)
    return Division.objects.create(
        club_id=season.club_id,
        season=season,
        name=name,
        slug=slug or _unique_slug(name, taken),
        ruleset=ruleset,
        house_rules=house_rules,
        games_per_fixture=games_per_fixture,
    )


DIVISION_FIELDS = (
    "season",
    "name",
    "slug",
    "ruleset",
    "house_rules",
    "games_per_fixture",
    "withdrawal_policy",
)


def division_update(*, division: Division, **changes: Any) -> Division:
    """Change any of a division's ``DIVISION_FIELDS``. Its rule set is fixed once a game
    has been played in it (the deals were scored by it). ``withdrawal_policy`` says what
    becomes of a withdrawing team's later fixtures (``team_withdraw``)."""
    unknown = set(changes) - set(DIVISION_FIELDS)
    if unknown:
        raise TypeError(f"division_update() got unexpected fields {sorted(unknown)}")
    after = {name: changes.get(name, getattr(division, name)) for name in DIVISION_FIELDS}
    season = after["season"]
    errors = _name_errors(after["name"]) + _division_errors(
        club_id=division.club_id,
        ruleset=after["ruleset"],
        house_rules=after["house_rules"],
        games_per_fixture=after["games_per_fixture"],
    )
    if season.club_id != division.club_id:
        errors.append({"field": "season", "message": str(SEASON_OTHER_CLUB)})
    if after["withdrawal_policy"] not in Division.Withdrawal.values:
        errors.append({"field": "withdrawal_policy", "message": str(WITHDRAWAL_POLICY)})
    rules_changed = after["ruleset"] != division.ruleset or (
        (after["house_rules"].pk if after["house_rules"] else None) != division.house_rules_id
    )
    if rules_changed and division.games.exists():
        errors.append(conflict("ruleset", str(RULES_FIXED)))
    if (
        after["slug"] != division.slug or season.pk != division.season_id
    ) and Division.objects.filter(season=season, slug=after["slug"]).exclude(
        pk=division.pk
    ).exists():
        errors.append(conflict("slug", str(DIVISION_SLUG_TAKEN)))
    if errors:
        raise LeagueError(errors)
    for name, value in after.items():
        setattr(division, name, value)
    division.save()
    return division


# --- teams ------------------------------------------------------------------------------------


def _players_errors(division: Division, players: Sequence[Player]) -> list[dict[str, str]]:
    errors = []
    if any(p.club_id != division.club_id for p in players):
        errors.append({"field": "players", "message": str(PLAYER_OTHER_CLUB)})
    if len({p.pk for p in players}) != len(players):
        errors.append({"field": "players", "message": str(PLAYER_TWICE)})
    ruleset = get_ruleset(division.rules_spec())
    if len(players) != ruleset.players_per_side:
        message = str(TEAM_SIZE).format(
            ruleset=ruleset.slug, size=ruleset.players_per_side, given=len(players)
        )
        errors.append({"field": "players", "message": message})
    return errors


def _team_name_errors(division: Division, name: str, team: Team | None = None) -> list[dict]:
    errors = _name_errors(name)
    clash = Team.objects.filter(division=division, name=name)
    if team is not None:
        clash = clash.exclude(pk=team.pk)
    if clash.exists():
        errors.append(conflict("name", str(TEAM_NAME_TAKEN)))
    return errors


def _set_members(team: Team, players: Sequence[Player]) -> None:
    team.members.all().delete()
    TeamMember.objects.bulk_create(
        TeamMember(team=team, player=p, position=i) for i, p in enumerate(players)
    )


def _carried_errors(points: Any) -> list[dict[str, str]]:
    if isinstance(points, bool) or not isinstance(points, int) or not -9999 <= points <= 9999:
        return [{"field": "carried_points", "message": str(CARRIED_POINTS_RANGE)}]
    return []


@transaction.atomic
def team_register(
    *,
    division: Division,
    name: str,
    players: Sequence[Player] = (),
    player_names: Sequence[str] = (),
    carried_points: int = 0,
) -> Team:
    """A team of ``players`` (or of players named ``player_names``, matched in any case
    with the club's players, added to the club when new), in seating order. The rule set
    says how many players a team has. ``carried_points``: match points it starts with
    (a season already under way when the club began entering results here)."""
    chosen = list(players)
    for player_name in player_names:
        if player_name_clean(player_name):
            chosen.append(player_get_or_create(club=division.club, name=player_name))
    errors = _team_name_errors(division, name) + _players_errors(division, chosen)
    errors += _carried_errors(carried_points)
    if errors:
        raise LeagueError(errors)
    team = Team.objects.create(
        club_id=division.club_id, division=division, name=name, carried_points=carried_points
    )
    _set_members(team, chosen)
    return team


@transaction.atomic
def team_update(
    *,
    team: Team,
    name: str | None = None,
    division: Division | None = None,
    players: Sequence[Player] | None = None,
    player_names: Sequence[str] | None = None,
    carried_points: int | None = None,
) -> Team:
    """Rename a team, move it to another division of the club, change its players (in
    seating order; or by ``player_names``, matched in any case, new ones added to the club)
    or the match points it carried over; what is not given stays. Games already played
    keep who sat at the table."""
    division = division or team.division
    if player_names is not None:
        players = [player_get_or_create(club=team.club, name=n) for n in player_names if n.strip()]
    name = team.name if name is None else name
    errors = _team_name_errors(division, name, team)
    if division.club_id != team.club_id:
        errors.append({"field": "division", "message": str(DIVISION_OTHER_CLUB)})
    current = [m.player for m in team.members.select_related("player").order_by("position")]
    errors += _players_errors(division, current if players is None else list(players))
    if carried_points is not None:
        errors += _carried_errors(carried_points)
        team.carried_points = carried_points
    if errors:
        raise LeagueError(errors)
    team.name, team.division = name, division
    team.save(update_fields=["name", "division", "carried_points"])
    if players is not None:
        _set_members(team, list(players))
    return team


@transaction.atomic
def team_withdraw(*, team: Team, on: dt.date, user: Any = None) -> Team:
    """The team withdraws from its division on ``on``. Its results before then stand; its
    fixtures from ``on`` (or without a date) that have no result and no game become
    walkovers to their opponents or are removed, as ``division.withdrawal_policy`` says:
    the schedule does that, in this transaction, through ``hooks.team_withdrawn``."""
    team = Team.objects.select_for_update().select_related("division__season").get(pk=team.pk)
    if team.withdrawn_on is not None:
        message = str(TEAM_WITHDRAWN_ALREADY).format(team=team.name, on=_date(team.withdrawn_on))
        raise LeagueError.one("team", message, kind=CONFLICT)
    start = team.division.season.start_date
    if on < start:
        raise LeagueError.one("on", str(WITHDRAW_BEFORE_SEASON).format(start=_date(start)))
    team.withdrawn_on = on
    team.save(update_fields=["withdrawn_on"])
    team_withdrawn.send(team=team, on=on, user=user)
    return team


def team_members_player_merging(*, source: Player, target: Player) -> None:
    """``clubs.hooks.player_merging``: ``source``'s team places become ``target``'s;
    refused when both play in the same team."""
    shared = Team.objects.filter(members__player=source).filter(members__player=target).first()
    if shared is not None:
        message = str(MERGE_SAME_TEAM).format(source=source.name, target=target.name, team=shared)
        raise LeagueError.one("target", message)
    TeamMember.objects.filter(player=source).update(player=target)


# --- venues -----------------------------------------------------------------------------------

VENUE_OTHER_CLUB = _("This venue is not one of the club's.")
VENUE_NAME_TAKEN = _("The club already has a venue of this name.")
TABLES_RANGE = _("A venue has 1 to 500 tables.")


def _venue_errors(club_id: int, name: str, tables: int, venue: Venue | None = None) -> list:
    errors = []
    clash = Venue.objects.filter(club_id=club_id, name=name)
    if venue is not None:
        clash = clash.exclude(pk=venue.pk)
    if clash.exists():
        errors.append(conflict("name", str(VENUE_NAME_TAKEN)))
    if not 1 <= tables <= 500:
        errors.append({"field": "tables", "message": str(TABLES_RANGE)})
    return errors


def venue_create(*, club: Club, name: str, tables: int = 4) -> Venue:
    """A venue of the club with ``tables`` tables (1 to 500; 4 unless said)."""
    errors = _venue_errors(club.pk, name, tables)
    if errors:
        raise LeagueError(errors)
    return Venue.objects.create(club=club, name=name, tables=tables)


def venue_update(*, venue: Venue, name: str | None = None, tables: int | None = None) -> Venue:
    """Rename a venue or change its number of tables; what is not given stays."""
    name = venue.name if name is None else name
    tables = venue.tables if tables is None else tables
    errors = _venue_errors(venue.club_id, name, tables, venue)
    if errors:
        raise LeagueError(errors)
    venue.name, venue.tables = name, tables
    venue.save(update_fields=["name", "tables"])
    return venue
