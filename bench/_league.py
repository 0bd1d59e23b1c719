"""A played league for the benchmarks, bulk-inserted: divisions, teams, a double round robin
and every game of it simulated and scored by the rules engine.

``played_division`` builds one division's season (``bench/standings.py``, ``bench/pages.py``);
the rows are what the services would have written (Game, GameSide, GameSeat, Deal), and
``standings.services.rebuild.standings_rebuild`` then builds the aggregates from them, as
``manage.py standings_check --fix`` would. Django must be set up first (``_django.setup``).
"""

from __future__ import annotations

import datetime
import random

from clabber_league.clubs.models import Club, Player
from clabber_league.games.adapters import deal_columns, seat_side
from clabber_league.games.models import Deal, Game, GameSeat, GameSide
from clabber_league.leagues.models import Division, Season, Team, TeamMember
from clabber_league.rules import get_ruleset, score_game_with_pot
from clabber_league.rules.dealing import dealer_sequence
from clabber_league.rules.simulate import simulate_game
from clabber_league.scheduling.models import Fixture

START = datetime.date(2026, 1, 5)


def double_round_robin(n: int) -> list[list[tuple[int, int]]]:
    """The circle method: everyone meets everyone, then the return legs. With an odd
    number of teams a bye (team ``n``) sits out a team each round; its pairs are left out."""
    size = n + (n % 2)
    order = list(range(size))
    rounds = []
    for _ in range(size - 1):
        pairs = [(order[i], order[size - 1 - i]) for i in range(size // 2)]
        rounds.append([(a, b) for a, b in pairs if a < n and b < n])
        order = [order[0], order[-1], *order[1:-1]]
    return rounds + [[(b, a) for a, b in pairs] for pairs in rounds]


def club_with_season(slug: str = "bench") -> tuple[Club, Season]:
    club = Club.objects.create(name="Bench Club", slug=slug, is_public=True)
    season = Season.objects.create(club=club, name="Bench season", slug="bench", start_date=START)
    return club, season


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
    ruleset = get_ruleset("clabber")
    division = Division.objects.create(
        club=club, season=season, name=name, slug=name.lower().replace(" ", "-")
    )
    players = Player.objects.bulk_create(
        Player(club=club, name=f"{name} player {i:03d}") for i in range(teams_count * 2)
    )
    teams = Team.objects.bulk_create(
        Team(club=club, division=division, name=f"{name} team {i:02d}") for i in range(teams_count)
    )
    TeamMember.objects.bulk_create(
        TeamMember(team=team, player=players[2 * i + p], position=p)
        for i, team in enumerate(teams)
        for p in range(2)
    )
    fixtures = Fixture.objects.bulk_create(
        Fixture(
            club=club,
            division=division,
            round_number=r + 1,
            home=teams[h],
            away=teams[a],
            date=season.start_date + datetime.timedelta(weeks=r),
            games_planned=games_per_fixture,
            status="played",
        )
        for r, pairs in enumerate(double_round_robin(teams_count))
        for h, a in pairs
    )
    game_rows, answers = [], []
    for fixture in fixtures:
        for number in range(1, games_per_fixture + 1):
            first_dealer = rng.randrange(4)
            deals = simulate_game(ruleset, rng, first_dealer=first_dealer)
            answer, pot = score_game_with_pot({"ruleset": "clabber", "deals": deals})
            dealers = dealer_sequence(ruleset, first_dealer, answer["deals"])
            scores = answer["scores"]
            game_rows.append(
                Game(
                    club=club,
                    division=division,
                    fixture=fixture,
                    number=number,
                    rules="clabber",
                    first_dealer=first_dealer,
                    status=Game.Status.CONFIRMED,
                    winner=answer["winner"] or "",
                    score_a=scores["A"],
                    score_b=scores["B"],
                    deal_count=len(deals),
                    pot=pot,
                    next_dealer=dealers[-1],
                    played_on=fixture.date,
                )
            )
            answers.append((fixture, dealers, deals, answer))
    games = Game.objects.bulk_create(game_rows, batch_size=2000)
    index = {team.pk: i for i, team in enumerate(teams)}
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
    return division
