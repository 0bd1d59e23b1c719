"""A league for the benchmarks, bulk-inserted: teams, a round robin, and every game of it
simulated and scored by the rules engine.

``played_division`` builds one division's season (``bench/standings.py``,
``bench/pages.py``); its pieces serve the benchmarks that need a league of another shape
(``bench/backup.py``: players with logins; ``bench/game_start.py``: fixtures not played
yet). The rows are what the services would have written (Game, GameSide, GameSeat, Deal),
and ``standings.services.rebuild.standings_rebuild`` then builds the aggregates from them,
as ``manage.py standings_check --fix`` would. Django must be set up first
(``_django.setup``).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Any

from clabber_league.clubs.models import Club, Player
from clabber_league.games.adapters import deal_columns, seat_side
from clabber_league.games.models import Deal, Game, GameSeat, GameSide
from clabber_league.leagues.models import Division, Season, Team, TeamMember
from clabber_league.rules import get_ruleset, score_game_with_pot
from clabber_league.rules.dealing import dealer_sequence
from clabber_league.rules.simulate import simulate_game
from clabber_league.scheduling.models import Fixture

START = datetime.date(2026, 1, 5)


def round_robin(n: int, cycles: int = 2) -> list[list[tuple[int, int]]]:
    """The circle method: everyone meets everyone once (``cycles=1``), then the return legs
    (``cycles=2``). With an odd number of teams a bye (team ``n``) sits out a team each
    round; its pairs are left out."""
    size = n + (n % 2)
    order = list(range(size))
    rounds = []
    for _ in range(size - 1):
        pairs = [(order[i], order[size - 1 - i]) for i in range(size // 2)]
        rounds.append([(a, b) for a, b in pairs if a < n and b < n])
        order = [order[0], order[-1], *order[1:-1]]
    if cycles == 2:
        rounds += [[(b, a) for a, b in pairs] for pairs in rounds]
    return rounds


def club_with_season(slug: str = "bench") -> tuple[Club, Season]:
    club = Club.objects.create(name="Bench Club", slug=slug, is_public=True)
    season = Season.objects.create(club=club, name="Bench season", slug="bench", start_date=START)
    return club, season


def partnerships(club: Club, division: Division, players: Sequence[Player], prefix: str) -> list:
    """A team of every two ``players``, in order: team ``i`` (named ``"<prefix> <i>"``) is
    players ``2i`` and ``2i+1``."""
    teams = Team.objects.bulk_create(
        Team(club=club, division=division, name=f"{prefix} {i:03d}")
        for i in range(len(players) // 2)
    )
    TeamMember.objects.bulk_create(
        TeamMember(team=team, player=players[2 * i + p], position=p)
        for i, team in enumerate(teams)
        for p in range(2)
    )
    return teams


def schedule(
    club: Club,
    division: Division,
    teams: Sequence[Team],
    *,
    start: datetime.date,
    cycles: int = 2,
    **fields: Any,
) -> list[Fixture]:
    """The round robin's fixtures, a round a week from ``start`` (``fields``: status,
    games planned)."""
    return Fixture.objects.bulk_create(
        (
            Fixture(
                club=club,
                division=division,
                round_number=r + 1,
                home=teams[h],
                away=teams[a],
                date=start + datetime.timedelta(weeks=r),
                **fields,
            )
            for r, pairs in enumerate(round_robin(len(teams), cycles))
            for h, a in pairs
        ),
        batch_size=5000,
    )


def play(
    fixtures: Sequence[Fixture],
    teams: Sequence[Team],
    players: Sequence[Player],
    *,
    games_per_fixture: int,
    rng: random.Random,
    batch: int = 200,
) -> None:
    """Every game of ``fixtures`` played and confirmed, ``batch`` fixtures at a time (so a
    big season is never held in memory whole); ``players`` are the teams' in
    :func:`partnerships` order."""
    index = {team.pk: i for i, team in enumerate(teams)}
    for start in range(0, len(fixtures), batch):
        _play_batch(fixtures[start : start + batch], index, players, games_per_fixture, rng)


def _play_batch(fixtures, index, players, games_per_fixture: int, rng: random.Random) -> None:
    ruleset = get_ruleset("clabber")
    game_rows, answers = [], []
    for fixture in fixtures:
        for number in range(1, games_per_fixture + 1):
            first_dealer = rng.randrange(4)
            deals = simulate_game(ruleset, rng, first_dealer=first_dealer)
            answer, pot = score_game_with_pot({"ruleset": "clabber", "deals": deals})
            dealers = dealer_sequence(ruleset, first_dealer, answer["deals"])
            game_rows.append(
                Game(
                    club_id=fixture.club_id,
                    division_id=fixture.division_id,
                    fixture=fixture,
                    number=number,
                    rules="clabber",
                    first_dealer=first_dealer,
                    status=Game.Status.CONFIRMED,
                    winner=answer["winner"] or "",
                    score_a=answer["scores"]["A"],
                    score_b=answer["scores"]["B"],
                    deal_count=len(deals),
                    pot=pot,
                    next_dealer=dealers[-1],
                    played_on=fixture.date,
                )
            )
            answers.append((fixture, dealers, deals, answer))
    games = Game.objects.bulk_create(game_rows, batch_size=2000)
    sides, seats, deal_rows = [], [], []
    for game, (fixture, dealers, deals, answer) in zip(games, answers, strict=True):
        home, away = index[fixture.home_id], index[fixture.away_id]
        sides += [
            GameSide(game=game, side="A", team_id=fixture.home_id),
            GameSide(game=game, side="B", team_id=fixture.away_id),
        ]
        order = [2 * home, 2 * away, 2 * home + 1, 2 * away + 1]
        seats += [
            GameSeat(game=game, seat=s, side=seat_side(s, 2), player=players[order[s]])
            for s in range(4)
        ]
        for i, (data, deal_answer) in enumerate(zip(deals, answer["deals"], strict=True)):
            maker = data.get("maker")
            deal_rows.append(
                Deal(
                    game=game,
                    number=i + 1,
                    dealer=dealers[i],
                    maker_seat=("AB".index(maker) + 2 * rng.randrange(2)) if maker else None,
                    data=data,
                    maker=maker or "",
                    **deal_columns(deal_answer, answer["running"][i]),
                )
            )
    GameSide.objects.bulk_create(sides, batch_size=5000)
    GameSeat.objects.bulk_create(seats, batch_size=5000)
    Deal.objects.bulk_create(deal_rows, batch_size=5000)


def played_division(
    club: Club,
    season: Season,
    *,
    name: str,
    teams_count: int,
    games_per_fixture: int,
    rng: random.Random,
) -> Division:
    """A division of ``teams_count`` partnerships that has played its whole double round
    robin, every game confirmed."""
    division = Division.objects.create(
        club=club, season=season, name=name, slug=name.lower().replace(" ", "-")
    )
    players = Player.objects.bulk_create(
        Player(club=club, name=f"{name} player {i:03d}") for i in range(teams_count * 2)
    )
    teams = partnerships(club, division, players, f"{name} team")
    fixtures = schedule(
        club,
        division,
        teams,
        start=season.start_date,
        games_planned=games_per_fixture,
        status="played",
    )
    play(fixtures, teams, players, games_per_fixture=games_per_fixture, rng=rng)
    return division
