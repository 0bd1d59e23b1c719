"""Fixtures created, changed, moved, forfeited or deleted by hand, with the checks a
generated schedule meets (teams of the division, free that night; the table free), and a
fixture's status kept in step with its games (``fixture_result_update``).

Each change locks the division's schedule config row first, as generation does, so a
change waits for a generation running and the other way round.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clabber_league.core.errors import CONFLICT, conflict
from clabber_league.core.i18n import local_format
from clabber_league.leagues.models import Division, Team, Venue
from clabber_league.leagues.results import Points
from clabber_league.leagues.services import VENUE_OTHER_CLUB

from .. import selectors, store
from ..hooks import fixture_changed, fixture_moved, home_venues, night_bookings
from ..models import Fixture, ScheduleConfig
from . import ScheduleError

DIVISION_OTHER_CLUB = _("This division is not one of the club's.")
TABLE_RANGE = _("{venue} has tables 1 to {tables}.")
TABLE_NEEDS_VENUE = _("Give the venue of the table.")
TABLE_TAKEN = _("Table {table} at {venue} is taken that night by {home} v {away}.")
TEAM_BUSY = _("{team} already plays that night ({home} v {away}).")
TABLE_BOOKED = _("Table {table} at {venue} is taken that night by {booking}.")
TEAM_BOOKED = _("{team} already plays that night ({booking}).")
FIXTURE_DONE = _("This fixture has a result; it can no longer be moved.")
FIXTURE_HAS_GAMES = _("Games have been recorded for this fixture; it cannot be forfeited.")
FORFEIT_WINNER = _("The winner of a forfeit is one of the fixture's two teams.")
FORFEIT_TWICE = _("This fixture is already a forfeit.")
FIXTURE_KEPT = _("This fixture has a result or games; it cannot be deleted.")
FIXTURE_HAS_RESULT = _(
    "This fixture has a result or games: its teams, division and games cannot be changed."
)
TEAM_SELF = _("A team cannot play itself.")
TEAM_OTHER_DIVISION = _("This team is not in the division.")
GAMES_PLANNED = _("A fixture is 1 to 9 games.")
WITHDRAWN_NOTE = _("Walkover: {team} withdrew on {on}")
TEAM_WITHDRAWN = _("{team} withdrew on {on}: it plays no more fixtures.")
NO_PLAY_NIGHT = _(
    "{date} is a no-play night of {division}{reason}. Choose another night, or say that it "
    "is played then anyway."
)


def _date(day: dt.date) -> str:
    """A date in a message, in the reader's order (the API's English: 1 Oct 2026)."""
    return date_format(day, local_format("j M Y"))


def _lock(fixture: Fixture) -> Fixture:
    """Lock the division's schedule config (generation holds it too), then the fixture."""
    list(ScheduleConfig.objects.select_for_update().filter(division_id=fixture.division_id))
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("home", "away", "venue", "division__season")
        .get(pk=fixture.pk)
    )


def home_venue(division: Division, home: Team) -> Venue | None:
    """The venue ``home`` plays its home fixtures at, when the layers above give it one
    (``hooks.home_venues``: an inter-club team's home club's venue)."""
    return dict(home_venues.ask(division=division)).get(home.pk)


def _check_place(
    club_id: int, venue: Venue | None, table: int | None, home: Venue | None = None
) -> None:
    """A table is one of the club's venue's tables, or of ``home``, the home team's own
    venue (another club's: an inter-club fixture)."""
    errors: list[dict[str, str]] = []
    own = home is not None and venue is not None and venue.pk == home.pk
    if venue is not None and venue.club_id != club_id and not own:
        errors.append({"field": "venue", "message": str(VENUE_OTHER_CLUB)})
    if table is not None and venue is None:
        errors.append({"field": "table", "message": str(TABLE_NEEDS_VENUE)})
    if venue is not None and table is not None and not 1 <= table <= venue.tables:
        errors.append(
            {
                "field": "table",
                "message": str(TABLE_RANGE).format(venue=venue.name, tables=venue.tables),
            }
        )
    if errors:
        raise ScheduleError(errors)


def _check_night(
    *,
    club_id: int,
    date: dt.date | None,
    teams: Sequence[Team],
    venue: Venue | None,
    table: int | None,
    exclude_pk: int | None = None,
    bookings: bool = True,
) -> None:
    """Neither team plays another fixture that night and the table is free: the checks a
    generated schedule meets, for a fixture moved, created or given other teams by hand.
    The venue and that night's fixtures are locked, so two requests cannot both pass.
    With ``bookings``, the same checks against what the apps above hold that night (a cup
    tie), asked through ``hooks.night_bookings``."""
    if venue is not None:
        list(Venue.objects.select_for_update().filter(pk=venue.pk))
    if date is None:
        return
    same_night = (
        Fixture.objects.select_for_update(of=("self",))
        .filter(club_id=club_id, date=date)
        .exclude(pk=exclude_pk)
        .select_related("home", "away", "venue")
    )
    for other in same_night:
        for team in teams:
            if team.pk in (other.home_id, other.away_id):
                busy = str(TEAM_BUSY).format(team=team.name, home=other.home, away=other.away)
                raise ScheduleError.one("date", busy, kind=CONFLICT)
        if (
            table is not None
            and venue is not None
            and other.venue_id == venue.pk
            and other.table == table
        ):
            raise ScheduleError.one(
                "table",
                str(TABLE_TAKEN).format(
                    table=table, venue=venue.name, home=other.home, away=other.away
                ),
                kind=CONFLICT,
            )
    if bookings:
        _check_bookings(club_id=club_id, date=date, teams=teams, venue=venue, table=table)


def _check_bookings(
    *, club_id: int, date: dt.date, teams: Sequence[Team], venue: Venue | None, table: int | None
) -> None:
    """The night's bookings of the apps above (``hooks.night_bookings``): none of ``teams``
    is in one and none has the table; refused (409) with the same kind of message as a
    fixture clash."""
    for booking in night_bookings.ask(club_id=club_id, start=date, end=date):
        if booking.date != date:
            continue
        for team in teams:
            if team.pk in booking.team_ids:
                busy = str(TEAM_BOOKED).format(team=team.name, booking=booking.label)
                raise ScheduleError.one("date", busy, kind=CONFLICT)
        if (
            table is not None
            and venue is not None
            and booking.venue_id == venue.pk
            and booking.table == table
        ):
            raise ScheduleError.one(
                "table",
                str(TABLE_BOOKED).format(table=table, venue=venue.name, booking=booking.label),
                kind=CONFLICT,
            )


def night_check(
    *,
    club_id: int,
    date: dt.date | None,
    teams: Sequence[Team],
    venue: Venue | None,
    table: int | None,
) -> None:
    """The league's checks for a meeting placed on a night at a table, for a caller outside
    the schedule (a cup's tie): the table is one of the club's venue's, none of ``teams``
    plays a fixture that night and no fixture has the table. Locks as a move does; raises
    ``ScheduleError`` (409 for a clash). The night's bookings (``hooks.night_bookings``)
    are the caller's own to check: it is the app that holds them."""
    _check_place(club_id, venue, table)
    _check_night(club_id=club_id, date=date, teams=teams, venue=venue, table=table, bookings=False)


def _check_play_night(fixture: Fixture, date: dt.date) -> None:
    skip = selectors.no_play_night(division=fixture.division, date=date)
    if skip is not None:
        reason = gettext(" ({reason})").format(reason=skip.reason) if skip.reason else ""
        raise ScheduleError.one(
            "date",
            str(NO_PLAY_NIGHT).format(
                date=date_format(date, local_format("D j M Y")),
                division=fixture.division.name,
                reason=reason,
            ),
        )


def _teams_errors(division: Division, home: Team, away: Team) -> list[dict[str, str]]:
    errors = []
    if home.pk == away.pk:
        errors.append({"field": "away", "message": str(TEAM_SELF)})
    for name, team in (("home", home), ("away", away)):
        if team.division_id != division.pk:
            errors.append({"field": name, "message": str(TEAM_OTHER_DIVISION)})
    return errors


def _lock_config(division: Division) -> None:
    """Generation holds the division's schedule config row; so do hand-made changes."""
    list(ScheduleConfig.objects.select_for_update().filter(division_id=division.pk))


@transaction.atomic
def fixture_create(
    *,
    division: Division,
    round_number: int,
    home: Team,
    away: Team,
    date: dt.date | None = None,
    venue: Venue | None = None,
    table: int | None = None,
    games_planned: int | None = None,
    user: Any = None,
) -> Fixture:
    """A fixture added by hand (a rearranged or extra match): the same checks as a
    generated or moved one (teams of the division, free that night; the table free). It
    is ``scheduled``, or ``postponed`` without a date; a result comes from its games or a
    forfeit, never from here."""
    planned = division.games_per_fixture if games_planned is None else games_planned
    errors = _teams_errors(division, home, away)
    if not 1 <= planned <= 9:
        errors.append({"field": "games_planned", "message": str(GAMES_PLANNED)})
    for name, team in (("home", home), ("away", away)):
        if team.withdrawn_on is not None and (date is None or date >= team.withdrawn_on):
            message = str(TEAM_WITHDRAWN).format(team=team.name, on=_date(team.withdrawn_on))
            errors.append({"field": name, "message": message})
    if errors:
        raise ScheduleError(errors)
    _lock_config(division)
    own = home_venue(division, home)
    if venue is None and own is not None:
        venue, table = own, None  # its home team's own venue, seated by its club
    _check_place(division.club_id, venue, table, own)
    _check_night(club_id=division.club_id, date=date, teams=(home, away), venue=venue, table=table)
    return Fixture.objects.create(
        club_id=division.club_id,
        division=division,
        round_number=round_number,
        home=home,
        away=away,
        date=date,
        venue=venue,
        table=table if venue is not None else None,
        games_planned=planned,
        status=Fixture.Status.SCHEDULED if date is not None else Fixture.Status.POSTPONED,
    )


FIXTURE_UPDATE_FIELDS = ("division", "round_number", "home", "away", "games_planned")


@transaction.atomic
def fixture_update(*, fixture: Fixture, user: Any = None, **changes: Any) -> Fixture:
    """Change a fixture's round, teams, division or games planned (``FIXTURE_UPDATE_FIELDS``).
    Once it has a result or games only the round can change; new teams must be free that
    night. Date, venue and table change through ``fixture_move``."""
    unknown = set(changes) - set(FIXTURE_UPDATE_FIELDS)
    if unknown:
        raise TypeError(f"fixture_update() got unexpected fields {sorted(unknown)}")
    fixture = _lock(fixture)
    after = {name: changes.get(name, getattr(fixture, name)) for name in FIXTURE_UPDATE_FIELDS}
    changed = [
        name
        for name in ("division", "home", "away", "games_planned")
        if name in changes and after[name] != getattr(fixture, name)
    ]
    if changed and (fixture.is_done or fixture.games.exists()):
        raise ScheduleError([conflict(name, str(FIXTURE_HAS_RESULT)) for name in changed])
    errors = _teams_errors(after["division"], after["home"], after["away"])
    if not 1 <= after["games_planned"] <= 9:
        errors.append({"field": "games_planned", "message": str(GAMES_PLANNED)})
    if after["division"].club_id != fixture.club_id:
        errors.append({"field": "division", "message": str(DIVISION_OTHER_CLUB)})
    if errors:
        raise ScheduleError(errors)
    if {"home", "away"} & set(changed):
        _check_night(
            club_id=fixture.club_id,
            date=fixture.date,
            teams=(after["home"], after["away"]),
            venue=None,
            table=None,
            exclude_pk=fixture.pk,
        )
    for name, value in after.items():
        setattr(fixture, name, value)
    fixture.save(update_fields=[*FIXTURE_UPDATE_FIELDS, "updated_at"])
    return fixture


@transaction.atomic
def fixture_delete(*, fixture: Fixture, user: Any = None) -> None:
    """Delete a fixture without a result; one that is played, forfeit or has games is part
    of the standings and stays."""
    fixture = _lock(fixture)
    if fixture.is_done or fixture.games.exists():
        raise ScheduleError.one("fixture", str(FIXTURE_KEPT), kind=CONFLICT)
    fixture.delete()


@transaction.atomic
def fixture_move(
    *,
    fixture: Fixture,
    date: dt.date | None,
    venue: Venue | None = None,
    table: int | None = None,
    note: str = "",
    on_no_play_night: bool = False,
    user: Any = None,
) -> Fixture:
    """Postpone (no date: to be arranged) or move a fixture to another night, venue or
    table. The first date it had is kept in ``original_date``. A night the division does
    not play (its schedule's skip dates) is refused unless ``on_no_play_night`` says the
    fixture is played then anyway."""
    fixture = _lock(fixture)
    if fixture.is_done or fixture.games.exists():
        raise ScheduleError.one("fixture", str(FIXTURE_DONE), kind=CONFLICT)
    _check_place(fixture.club_id, venue, table, home_venue(fixture.division, fixture.home))
    if date is not None and not on_no_play_night:
        _check_play_night(fixture, date)
    _check_night(
        club_id=fixture.club_id,
        date=date,
        teams=(fixture.home, fixture.away),
        venue=venue,
        table=table,
        exclude_pk=fixture.pk,
    )
    if date != fixture.date and fixture.original_date is None:
        fixture.original_date = fixture.date
    fixture.date = date
    fixture.venue = venue
    fixture.table = table if venue is not None else None
    fixture.status = Fixture.Status.POSTPONED if date is None else Fixture.Status.SCHEDULED
    fixture.note = note[:200]
    fixture.flagged_at = None
    fixture.reminded_at = None
    fixture.save(
        update_fields=[
            "original_date",
            "date",
            "venue",
            "table",
            "status",
            "note",
            "flagged_at",
            "reminded_at",
            "updated_at",
        ]
    )
    fixture_moved.send(fixture=fixture)
    return fixture


@transaction.atomic
def fixture_forfeit(*, fixture: Fixture, winner: Team, note: str = "", user: Any = None) -> Fixture:
    """Record a forfeit or walkover. The winner scores the season's ``points_win`` and every
    planned game, the loser ``points_loss`` (see ``selectors.fixture_outcomes``); the
    standings count it in the same transaction (``hooks.fixture_changed``)."""
    fixture = _lock(fixture)
    if fixture.status == Fixture.Status.FORFEIT:
        raise ScheduleError.one("fixture", str(FORFEIT_TWICE), kind=CONFLICT)
    if winner.pk not in (fixture.home_id, fixture.away_id):
        raise ScheduleError.one("winner", str(FORFEIT_WINNER))
    if fixture.games.exists():
        raise ScheduleError.one("fixture", str(FIXTURE_HAS_GAMES), kind=CONFLICT)
    fixture.status = Fixture.Status.FORFEIT
    fixture.forfeit_winner = winner
    fixture.note = note[:200]
    fixture.flagged_at = None
    fixture.save(update_fields=["status", "forfeit_winner", "note", "flagged_at", "updated_at"])
    fixture_changed.send(fixture=fixture)
    return fixture


def fixture_result_update(*, fixture_id: int) -> Fixture:
    """Keep a fixture's status in step with the games started for it: ``played`` once its
    result is decided (``leagues.results.fixture_result``), back to ``scheduled`` (or
    ``postponed`` without a date) when a correction undoes that. A forfeit is left alone.

    ``games.services`` calls it inside the transaction of the game write that changes
    whether a game counts, with the game row locked, so the schedule, the standings and
    the status never disagree, not even until the nightly job."""
    fixture, points = _locked_with_points(fixture_id)
    if fixture.status == Fixture.Status.FORFEIT:
        return fixture
    result = selectors.fixture_result_of(fixture, selectors.fixture_games(fixture=fixture), points)
    if result.decided and fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.flagged_at = None
    elif not result.decided and fixture.status == Fixture.Status.PLAYED:
        fixture.status = (
            Fixture.Status.SCHEDULED if fixture.date is not None else Fixture.Status.POSTPONED
        )
    else:
        return fixture
    fixture.save(update_fields=["status", "flagged_at", "updated_at"])
    return fixture


def _locked_with_points(fixture_id: int) -> tuple[Fixture, Points]:
    """The fixture, its row locked, and its season's points (``store``: one statement);
    ``Fixture.DoesNotExist`` when there is none."""
    found = store.fixture_locked_with_points(fixture_id=fixture_id)
    if found is None:
        raise Fixture.DoesNotExist("Fixture matching query does not exist.")
    fixture, win, tie, loss = found
    return fixture, Points(win=win, tie=tie, loss=loss)


def fixtures_team_withdrawn(*, team: Team, on: dt.date, user: Any = None) -> None:
    """``leagues.hooks.team_withdrawn``: the team's later fixtures
    (``selectors.withdrawn_fixtures``)
    become walkovers to the opponents (through ``fixture_forfeit``, so the standings count
    them) or are removed (``fixture_delete``), as the division's ``withdrawal_policy``
    says."""
    policy = Division.objects.values_list("withdrawal_policy", flat=True).get(pk=team.division_id)
    for fixture in list(selectors.withdrawn_fixtures(team=team, on=on)):
        if policy == Division.Withdrawal.REMOVE:
            fixture_delete(fixture=fixture, user=user)
        else:
            opponent = fixture.away if fixture.home_id == team.pk else fixture.home
            note = str(WITHDRAWN_NOTE).format(team=team.name, on=_date(on))
            fixture_forfeit(fixture=fixture, winner=opponent, note=note, user=user)
