"""Starting a game: its rules, seats, sides and fixture checked, its rows created."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from clabber_league.clubs.models import Club, Player
from clabber_league.core import rows
from clabber_league.core.errors import conflict
from clabber_league.leagues.models import Division, Team
from clabber_league.rules import (
    RulesError,
    get_ruleset,
)
from clabber_league.rules.errors import msg
from clabber_league.scheduling.models import Fixture

from .. import adapters, store
from ..hooks import fixture_rules
from ..models import Game, GameSeat, GameSide
from .errors import (
    DEAL_LIMIT_RANGE,
    FIRST_DEALER_DISAGREE,
    FIRST_DEALER_NOT_SEATED,
    FIRST_DEALER_RANGE,
    FIXTURE_DECIDED,
    FIXTURE_HAS_RESULT,
    FIXTURE_OTHER_DIVISION,
    FIXTURE_TEAMS,
    FIXTURE_UNDER_WAY,
    PLAYER_OTHER_CLUB,
    RULES_MISSING,
    RULES_UNKNOWN,
    RULES_WITH_DIVISION,
    SEAT_OTHER_SIDE,
    SEAT_TWICE,
    SEATS_COUNT,
    TEAM_OTHER_CLUB,
    TEAM_OTHER_DIVISION,
    TEAM_WITHDRAWN,
    GameError,
)
from .scoring import max_deals

# --- starting a game ----------------------------------------------------------------------


@transaction.atomic
def game_start(
    *,
    club: Club,
    division: Division | None = None,
    sides: Mapping[str, Team | None] | None = None,
    seats: Sequence[Player],
    rules: str | Mapping[str, Any] | None = None,
    deal_limit: int | None = None,
    first_dealer: int | None = None,
    first_dealer_player: Player | None = None,
    fixture: Fixture | None = None,
    number: int = 1,
    played_on: Any = None,
    user: Any = None,
) -> Game:
    """Seat the players and open the game.

    ``seats`` are the players who actually sit at the table, clockwise: seat ``i`` plays
    for side ``A``, ``B``(, ``C``) in turn, so partners sit opposite one another. Any
    player of the club may sit for a side: one who is not on the side's team is recorded
    as a substitute (``GameSeat.substitute``); a player of another side's team may not.
    The first dealer is a seat (``first_dealer``, 0 by default) or the player in it
    (``first_dealer_player``).

    A game outside any league (``division=None``: a club night's table, a cup tie) is
    played by its own ``rules`` (a rule set's slug or house-rules data, required then), its
    sides' teams optional (any teams of the club), and counts in no league standings; its
    players' ratings move as from any game. ``deal_limit`` ends it after that many deals
    even short of the target (``Game.deal_limit``).
    """
    sides = sides or {}
    rules, ruleset = _game_rules(club, division, rules, fixture)
    if deal_limit is not None and not 1 <= deal_limit <= max_deals():
        raise GameError.one("deal_limit", msg(DEAL_LIMIT_RANGE, cap=max_deals()))
    side_names = list(ruleset.sides)
    first_dealer, errors = _first_dealer(seats, first_dealer, first_dealer_player)
    errors += _start_errors(club, division, ruleset, sides, seats, first_dealer)
    errors += _withdrawn_errors(sides, played_on or timezone.localdate())
    if fixture is not None:
        if division is None:
            errors.append({"field": "fixture", "message": FIXTURE_OTHER_DIVISION})
        else:
            errors.extend(_fixture_errors(fixture, division, sides, side_names))
    if errors:
        raise GameError(errors)
    errors, substitutes = _seat_team_errors(sides, seats, side_names)
    if errors:
        raise GameError(errors)

    game = Game.objects.create(
        club=club,
        division=division,
        fixture=fixture,
        number=number,
        rules=rules,
        deal_limit=deal_limit,
        first_dealer=first_dealer,
        next_dealer=first_dealer,
        played_on=played_on or timezone.localdate(),
        score_c=0 if len(side_names) == 3 else None,
        created_by=user,
    )
    game_sides = GameSide.objects.bulk_create(
        [GameSide(game=game, side=side, team=sides.get(side)) for side in side_names]
    )
    game_seats = GameSeat.objects.bulk_create(
        [
            GameSeat(
                game=game,
                seat=i,
                side=adapters.seat_side(i, len(side_names)),
                player=p,
                substitute=substitutes[i],
            )
            for i, p in enumerate(seats)
        ]
    )
    # The caller answers with the game's sides and seats: they are these rows, in the
    # order a read gives them (side, seat), held as prefetch_related holds rows read.
    rows.prefetched(game, sides=game_sides, seats=game_seats)
    return game


def fixture_rules_spec(fixture: Fixture, division: Division | None = None) -> str | dict[str, Any]:
    """The rules a fixture's games are played by: its own when the layers above say so
    (``hooks.fixture_rules``: an inter-club fixture plays by its home club's rules), else
    its division's (``division`` when the caller has it loaded already)."""
    own = fixture_rules.ask(fixture=fixture)
    if own:
        return own[0]
    if division is None or division.pk != fixture.division_id:
        division = fixture.division
    return division.rules_spec()


def _game_rules(
    club: Club,
    division: Division | None,
    rules: str | Mapping[str, Any] | None,
    fixture: Fixture | None = None,
) -> tuple[str | dict[str, Any], Any]:
    """The rules spec a game is played by and its rule set: its fixture's when the layers
    above say the fixture has rules of its own (``hooks.fixture_rules``: an inter-club
    fixture plays by its home club's rules), else its division's, or (a game outside any
    league) the ``rules`` given."""
    if division is not None:
        if division.club_id != club.pk:
            raise GameError.one("division", TEAM_OTHER_DIVISION)
        if rules is not None:
            raise GameError.one("rules", RULES_WITH_DIVISION)
        spec = (
            fixture_rules_spec(fixture, division) if fixture is not None else division.rules_spec()
        )
        return spec, get_ruleset(spec)
    if not rules:
        raise GameError.one("rules", RULES_MISSING)
    spec = rules if isinstance(rules, str) else dict(rules)
    try:
        given = adapters.rules_input(spec)
        return spec, get_ruleset(given["ruleset"], given["options"])
    except (RulesError, KeyError, TypeError, AttributeError) as exc:
        raise GameError.one("rules", RULES_UNKNOWN) from exc


def _first_dealer(
    seats: Sequence[Player], seat: int | None, player: Player | None
) -> tuple[int, list[dict[str, str]]]:
    """The first dealer's seat, given as a seat, as the player in it, or both (they must
    agree); seat 0 when neither is given."""
    if player is None:
        return (0 if seat is None else seat), []
    player_seat = next((i for i, p in enumerate(seats) if p.pk == player.pk), None)
    if player_seat is None:
        return 0, [{"field": "first_dealer_player", "message": FIRST_DEALER_NOT_SEATED}]
    if seat is not None and seat != player_seat:
        message = msg(FIRST_DEALER_DISAGREE, seat=seat, player_seat=player_seat)
        return player_seat, [{"field": "first_dealer_player", "message": message}]
    return player_seat, []


def _start_errors(
    club: Club,
    division: Division | None,
    ruleset: Any,
    sides: Mapping[str, Team | None],
    seats: Sequence[Player],
    first_dealer: int,
) -> list[dict[str, str]]:
    """What is wrong with a game's seats, first dealer and sides, before its teams are read."""
    errors: list[dict[str, str]] = []
    if len(seats) != ruleset.players:
        errors.append(
            {
                "field": "seats",
                "message": msg(
                    SEATS_COUNT, ruleset=ruleset.slug, players=ruleset.players, given=len(seats)
                ),
            }
        )
    if len({p.pk for p in seats}) != len(seats):
        errors.append({"field": "seats", "message": SEAT_TWICE})
    if not 0 <= first_dealer < ruleset.players:
        errors.append(
            {
                "field": "first_dealer",
                "message": msg(FIRST_DEALER_RANGE, last=ruleset.players - 1),
            }
        )
    for side in ruleset.sides:
        team = sides.get(side)
        if team is None:
            continue
        if division is not None and team.division_id != division.pk:
            errors.append({"field": f"sides.{side}", "message": TEAM_OTHER_DIVISION})
        elif team.club_id != club.pk:
            errors.append({"field": f"sides.{side}", "message": TEAM_OTHER_CLUB})
    for index, player in enumerate(seats):
        if player.club_id != club.pk:
            errors.append({"field": f"seats[{index}]", "message": PLAYER_OTHER_CLUB})
    return errors


def _withdrawn_errors(sides: Mapping[str, Team | None], day: Any) -> list[dict[str, str]]:
    """A team that withdrew plays no game from the day it withdrew."""
    errors = []
    for side, team in sides.items():
        on = getattr(team, "withdrawn_on", None)
        if on is not None and isinstance(day, dt.date) and day >= on:
            message = msg(TEAM_WITHDRAWN, team=team.name, on=on)
            errors.append({"field": f"sides.{side}", "message": message})
    return errors


def _seat_team_errors(
    sides: Mapping[str, Team | None], seats: Sequence[Player], side_names: list[str]
) -> tuple[list[dict[str, str]], list[bool]]:
    """No seated player sits for a side other than their team's; and which seats are
    substitutes (a player not on the team of the side the seat plays for)."""
    errors: list[dict[str, str]] = []
    rosters = {
        side: (team, {m.player_id for m in team.members.all()})
        for side, team in sides.items()
        if team is not None and side in side_names
    }
    substitutes = []
    for index, player in enumerate(seats):
        side = adapters.seat_side(index, len(side_names))
        own = rosters.get(side)
        # A seat of a side without a team (a game outside a league) is nobody's substitute.
        substitutes.append(own is not None and player.pk not in own[1])
        for other, (team, roster) in rosters.items():
            if other != side and player.pk in roster:
                errors.append(
                    {
                        "field": f"seats[{index}]",
                        "message": msg(
                            SEAT_OTHER_SIDE,
                            player=player.name,
                            team=team.name,
                            side_team=own[0].name if own else f"side {side}",
                        ),
                    }
                )
    return errors, substitutes


def _fixture_errors(
    fixture: Fixture, division: Division, sides: Mapping[str, Team | None], side_names: list[str]
) -> list[dict[str, str]]:
    """A game counts for the fixture it is started for (and a game without one is a match
    of its own): so it must be that fixture's game, home team as side A, away as side B.
    The fixture's row is locked, so a forfeit recorded at the same moment waits."""
    if fixture.club_id != division.club_id or fixture.division_id != division.pk:
        return [{"field": "fixture", "message": FIXTURE_OTHER_DIVISION}]
    status, played, live = store.fixture_locked_games(fixture.pk)
    if played >= fixture.games_planned and status != Fixture.Status.FORFEIT:
        message = msg(FIXTURE_DECIDED, planned=fixture.games_planned, played=played)
        return [conflict("fixture", message)]
    if played + live >= fixture.games_planned and status != Fixture.Status.FORFEIT:
        # A game in progress is one of the planned games too: a second one for the same
        # planned game would let the fixture end 1-1 with one game won by each team.
        message = msg(FIXTURE_UNDER_WAY, planned=fixture.games_planned, live=live, played=played)
        return [conflict("fixture", message)]
    if status in Fixture.DONE:
        return [conflict("fixture", FIXTURE_HAS_RESULT)]
    wanted = {"A": fixture.home_id, "B": fixture.away_id}
    given = {side: (sides.get(side).pk if sides.get(side) else None) for side in side_names}
    if any(given.get(side) != wanted.get(side) for side in set(wanted) | set(given)):
        home = Team.objects.get(pk=fixture.home_id).name
        away = Team.objects.get(pk=fixture.away_id).name
        return [{"field": "sides", "message": msg(FIXTURE_TEAMS, home=home, away=away)}]
    return []
