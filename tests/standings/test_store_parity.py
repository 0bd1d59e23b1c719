"""Every statement of ``standings/store.py`` against the ORM query it replaces, on rows
hypothesis makes up (``tests/parity.py``), on SQLite and on PostgreSQL.

The rows need not make sense as a league (a standing that is no sum of contributions, a
total of no line): what is held is that the hand-written statement and the ORM read, or
leave, the same rows from whatever is stored.
"""

from __future__ import annotations

import datetime
from collections import Counter

import pytest
from django.db.models import F, Max, Sum
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from clabber_league.games.models import Deal, Game, GameSeat, GameSide
from clabber_league.leagues.models import Division
from clabber_league.scheduling.models import Fixture
from clabber_league.standings import reference, selectors, store
from clabber_league.standings.models import (
    Counters,
    GameStat,
    LeaderboardTotal,
    PartnershipGameStat,
    PlayerGameStat,
    PlayerRating,
    StandingContribution,
    TeamStanding,
    TiebreakerRules,
)
from tests.factories import DivisionFactory, TeamFactory
from tests.parity import PARITY, after, dates, fields_of, norm, rolled_back, small

pytestmark = pytest.mark.django_db

STATUSES = st.sampled_from([s.value for s in Game.Status])
counters = st.fixed_dictionaries({name: small for name in Counters.COUNTERS})
stats = st.fixed_dictionaries({name: small for name in GameStat.STATS})


@pytest.fixture
def league(db):
    """A division of four teams (two players each), a second division of the same club and
    season, and a division of another club: the statements must keep to theirs."""
    division = DivisionFactory(name="Premier")
    other = DivisionFactory(season=division.season, club=division.club, name="Second")
    foreign = DivisionFactory(name="Elsewhere")
    teams = [TeamFactory(division=division) for _ in range(4)]
    TeamFactory(division=other)
    TeamFactory(division=foreign)
    players = [m.player for t in teams for m in t.members.order_by("position")]
    return division, other, foreign, teams, players


def _game(division: Division, status: str, **fields) -> Game:
    return Game.objects.create(
        club_id=division.club_id, division=division, rules="clabber", status=status, **fields
    )


# --- the division and its table ---------------------------------------------------------------


@PARITY
@given(rules=st.none() | st.lists(st.sampled_from(["head_to_head", "wins", "points"])), pick=small)
def test_division_row_is_the_orm_s_division_with_season_and_rules(league, rules, pick):
    division, other, foreign, *_ = league
    with rolled_back():
        if rules is not None:
            TiebreakerRules.objects.create(
                club_id=division.club_id, division=division, tiebreakers=rules
            )
        for pk in (division.pk, other.pk, foreign.pk, 10**6 + pick, 2**63 + pick):
            found = store.division_row(club_id=division.club_id, pk=pk)
            wanted = (
                Division.objects.filter(club_id=division.club_id, pk=pk)
                .select_related("season")
                .first()
                if pk < 2**63
                else None
            )
            if wanted is None:
                assert found is None
                continue
            got, season, got_rules = found
            assert fields_of(got) == fields_of(wanted)
            assert fields_of(season) == fields_of(wanted.season)
            wanted_rules = TiebreakerRules.objects.filter(division_id=pk).first()
            assert fields_of(got_rules) == fields_of(wanted_rules)


@PARITY
@given(
    standing=st.lists(st.none() | counters, min_size=4, max_size=4),
    carried=st.lists(small, min_size=4, max_size=4),
    meetings=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), small, small, small), max_size=8
    ),
    points=st.fixed_dictionaries({"win": small, "tie": small, "loss": small}),
    head_to_head=st.booleans(),
)
def test_table_rows_are_the_orm_s_teams_and_level_head_to_heads(
    league, standing, carried, meetings, points, head_to_head
):
    division, _, _, teams, _ = league
    with rolled_back():
        for team, row, carry in zip(teams, standing, carried, strict=True):
            team.carried_points = carry
            team.save(update_fields=["carried_points"])
            if row is not None:
                TeamStanding.objects.create(
                    club_id=division.club_id, division=division, team=team, **row
                )
        for n, (a, b, won, tied, lost) in enumerate(meetings):
            StandingContribution.objects.create(
                club_id=division.club_id,
                division=division,
                team=teams[a],
                opponent=teams[b],
                match_key=f"g{n}",
                matches_won=won,
                matches_tied=tied,
                matches_lost=lost,
            )
        found = store.table_rows(
            club_id=division.club_id,
            division_id=division.pk,
            points=points,
            head_to_head=head_to_head,
        )
        wanted = [
            (0, pk, None, name, carry, *values)
            for pk, name, carry, *values in division.teams.values_list(
                "pk", "name", "carried_points", *(f"standing__{n}" for n in Counters.COUNTERS)
            )
        ]
        if head_to_head:
            match_points = {
                s.team_id: s.matches_won * points["win"]
                + s.matches_tied * points["tie"]
                + s.matches_lost * points["loss"]
                + s.team.carried_points
                for s in TeamStanding.objects.filter(division=division).select_related("team")
            }
            padding = (None,) * (len(Counters.COUNTERS) - 3)
            wanted += [
                (
                    1,
                    row["team_id"],
                    row["opponent_id"],
                    None,
                    None,
                    row["w"],
                    row["t"],
                    row["l"],
                    *padding,
                )
                for row in StandingContribution.objects.filter(division=division)
                .values("team_id", "opponent_id")
                .annotate(w=Sum("matches_won"), t=Sum("matches_tied"), l=Sum("matches_lost"))
                .order_by()
                if row["team_id"] in match_points
                and row["opponent_id"] in match_points
                and match_points[row["team_id"]] == match_points[row["opponent_id"]]
            ]
        assert sorted(map(tuple, found), key=repr) == sorted(wanted, key=repr)


@PARITY
@given(
    games=st.lists(
        st.tuples(STATUSES, st.integers(0, 2), st.lists(st.booleans(), max_size=2)), max_size=8
    )
)
def test_unconfirmed_count_is_the_orm_s(league, games):
    division, other, _, teams, _ = league
    with rolled_back():
        for status, where, team_sides in games:
            game = _game((division, other, division)[where], status)
            for side, with_team in zip("AB", team_sides, strict=False):
                GameSide.objects.create(game=game, side=side, team=teams[0] if with_team else None)
        wanted = (
            Game.objects.filter(
                club_id=division.club_id,
                division=division,
                status=Game.Status.FINISHED,
                sides__team__isnull=False,
            )
            .distinct()
            .count()
        )
        assert store.unconfirmed_count(club_id=division.club_id, division_id=division.pk) == wanted


@PARITY
@given(
    games=st.lists(
        st.tuples(
            STATUSES,
            st.booleans(),
            st.lists(st.none() | st.integers(0, 3), min_size=1, max_size=3),
            st.tuples(small, small, st.none() | small),
            st.booleans(),
        ),
        max_size=6,
    ),
    fixture_today=st.booleans(),
)
def test_division_now_rows_are_the_orm_s_live_games_and_night(league, games, fixture_today):
    division, other, _, teams, _ = league
    today = datetime.date(2027, 3, 4)
    with rolled_back():
        for status, here, side_teams, (a, b, c), played_today in games:
            game = _game(
                division if here else other,
                status,
                score_a=a,
                score_b=b,
                score_c=c,
                deal_count=a + b,
                played_on=today if played_today else today - datetime.timedelta(days=1),
            )
            for side, team in zip("ABC", side_teams, strict=False):
                GameSide.objects.create(
                    game=game, side=side, team=teams[team] if team is not None else None
                )
        if fixture_today:
            Fixture.objects.create(
                club_id=division.club_id,
                division=division,
                round_number=1,
                home=teams[0],
                away=teams[1],
                date=today,
            )
        found = store.division_now_rows(
            club_id=division.club_id, division_id=division.pk, today=today
        )
        live = [
            (gid, side, name, a, b, c, deals, None)
            for gid, side, name, a, b, c, deals in GameSide.objects.filter(
                game__club_id=division.club_id,
                game__division=division,
                game__status=Game.Status.IN_PROGRESS,
            )
            .order_by("game_id", "side")
            .values_list(
                "game_id",
                "side",
                "team__name",
                "game__score_a",
                "game__score_b",
                "game__score_c",
                "game__deal_count",
            )
        ]
        night = (
            Game.objects.filter(division=division, played_on=today).exists()
            or Fixture.objects.filter(division=division, date=today).exists()
        )
        assert [tuple(r) for r in found if r[0] is not None] == live
        assert [bool(r[-1]) for r in found if r[0] is None] == [night]


# --- leaderboards -----------------------------------------------------------------------------

total_rows = st.lists(
    st.tuples(
        st.sampled_from(["players", "partnerships"]),
        st.integers(0, 7),
        st.integers(0, 7),
        st.booleans(),
        st.fixed_dictionaries({n: small for n in (*LeaderboardTotal.SUMS, "best_meld")}),
    ),
    max_size=10,
)


@PARITY
@given(rows=total_rows, whole_club=st.booleans(), rated=st.lists(st.integers(0, 7), max_size=3))
def test_board_rows_are_the_orm_s_sums_by_player_and_partnership(league, rows, whole_club, rated):
    division, other, _, _, players = league
    with rolled_back():
        seen = set()
        for board, first, second, in_other, sums in rows:
            if board == "partnerships" and first == second:
                continue
            pair = sorted({players[first].pk, players[second].pk})
            key = str(players[first].pk) if board == "players" else "-".join(map(str, pair))
            where = other if in_other else division
            if (where.pk, board, key) in seen:
                continue
            seen.add((where.pk, board, key))
            LeaderboardTotal.objects.create(
                club_id=division.club_id,
                season_id=division.season_id,
                division=where,
                board=board,
                key=key,
                player_1_id=players[first].pk if board == "players" else pair[0],
                player_2_id=None if board == "players" else pair[1],
                **sums,
            )
        for index in set(rated):
            PlayerRating.objects.create(
                club_id=division.club_id, player=players[index], mu=25.0 + index, sigma=8.25
            )
        season_id = None if whole_club else division.season_id
        for board in (store.PLAYERS, store.PARTNERSHIPS):
            query = store.BoardRows(board=board, club_id=division.club_id, season_id=season_id)
            ident = store.BOARD_IDENT[board]
            wanted = _board_reference(division.club_id, board, ident)
            got = [norm(row[1:]) for row in query.rows()]
            assert sorted(got, key=repr) == sorted(wanted, key=repr)
            tenths = Counter(
                (row[0], row[1 + len(ident)]) for row in query.rows()
            )  # (tenths, games) of every row
            assert {(t, g): n for t, g, n in query.groups()} == dict(tenths)
            for row in query.rows():
                wins, games = row[2 + len(ident)], row[1 + len(ident)]
                assert row[0] == round((selectors._pct(wins, games) or 0) * 10)
            some = query.groups()[:1]
            assert sorted(map(norm, query.rows([g[:2] for g in some])), key=repr) == sorted(
                (
                    norm(r)
                    for r in query.rows()
                    if (r[0], r[1 + len(ident)]) in {g[:2] for g in some}
                ),
                key=repr,
            )


def _board_reference(club_id: int, board: str, ident: tuple[str, ...]) -> list[tuple]:
    sums = {
        name: (Max if name == "best_meld" else Sum)(column) for name, column in store.BOARD_SUMS
    }
    grouped = (
        LeaderboardTotal.objects.filter(club_id=club_id, board=board)
        .values(*ident)
        .annotate(**sums)
        .order_by()
    )
    if board == store.PLAYERS:
        names = ("player_1__name", "player_1__name_public", "player_1__rating__mu")
        names += ("player_1__rating__sigma",)
    else:
        names = tuple(f"player_{i}__{f}" for i in (1, 2, 3) for f in ("name", "name_public"))
    out = []
    for row in grouped:
        who = LeaderboardTotal.objects.filter(
            club_id=club_id, board=board, **{c: row[c] for c in ident}
        ).values_list(*names)[0]
        out.append(norm((*(row[c] for c in ident), *(row[n] for n, _ in store.BOARD_SUMS), *who)))
    return out


# --- a match's games --------------------------------------------------------------------------

deal_data = st.dictionaries(
    st.sampled_from(["trump", "points", "melds", "note"]),
    st.integers(-5, 500) | st.text("ABCabc ", max_size=4) | st.lists(small, max_size=3),
    max_size=3,
)


def _games_with_parts(division, teams, players, games) -> list[Game]:
    made = []
    for status, with_teams, deals in games:
        game = _game(division, status)
        for i, side in enumerate("AB"):
            team = teams[i] if with_teams else None
            GameSide.objects.create(game=game, side=side, team=team)
        for seat in range(4):
            GameSeat.objects.create(game=game, seat=seat, side="AB"[seat % 2], player=players[seat])
        for number, (outcome, maker, data) in enumerate(deals, start=1):
            Deal.objects.create(
                game=game,
                number=number,
                dealer=number % 4,
                maker_seat=None if maker is None else "AB".index(maker),
                maker=maker or "",
                outcome=outcome,
                data=data,
                result={"number": number, "data": data},
            )
        made.append(game)
    return made


game_specs = st.lists(
    st.tuples(
        STATUSES,
        st.booleans(),
        st.lists(
            st.tuples(
                st.sampled_from(["made", "set", "tied"]),
                st.none() | st.sampled_from("AB"),
                deal_data,
            ),
            max_size=4,
        ),
    ),
    max_size=4,
)


@PARITY
@given(games=game_specs, counted_only=st.booleans())
def test_game_parts_are_the_orm_s_sides_seats_and_deals(league, games, counted_only):
    division, _, _, teams, players = league
    with rolled_back():
        made = _games_with_parts(division, teams, players, games)
        ids = [g.pk for g in made]
        counted = [g.pk for g in made if g.status in Game.COUNTED or not counted_only]

        def ordered(rows):  # a game's sides come in no set order from the store
            return sorted((tuple(r) for r in rows), key=lambda r: (r[0], r[1], r[2], repr(r)))

        found = store.game_parts(game_ids=ids, counted=counted)
        assert ordered(found) == ordered(reference.game_parts(game_ids=ids, counted=counted))
        deals = [r for r in found if r[0] == 2]
        assert deals == sorted(deals, key=lambda r: (r[1], r[4]))


@PARITY
@given(statuses=st.lists(STATUSES, min_size=1, max_size=4), pick=st.integers(0, 3))
def test_fixture_other_games_are_the_orm_s(league, statuses, pick):
    division, _, _, teams, _ = league
    with rolled_back():
        fixture = Fixture.objects.create(
            club_id=division.club_id,
            division=division,
            round_number=1,
            home=teams[0],
            away=teams[1],
        )
        games = [
            _game(division, status, fixture=fixture, number=n, played_on=datetime.date(2027, 1, n))
            for n, status in enumerate(statuses, start=1)
        ]
        _game(division, statuses[0])  # a game of no fixture
        one = games[pick % len(games)]
        found = store.fixture_other_games(fixture_id=fixture.pk, game_id=one.pk)
        wanted = Game.objects.filter(fixture=fixture).exclude(pk=one.pk)
        assert sorted(map(fields_of, found), key=repr) == sorted(map(fields_of, wanted), key=repr)


# --- contributions and team standings ----------------------------------------------------------

contribution = st.tuples(
    st.integers(0, 3), st.sampled_from(["g1", "g2", "f1"]), counters, st.none() | dates
)


def _contribution_row(division, teams, team, key, values, played_on) -> dict:
    return {
        "club_id": division.club_id,
        "division_id": division.pk,
        "team_id": teams[team].pk,
        "match_key": key,
        **values,
        "opponent_id": teams[(team + 1) % 4].pk,
        "played_on": played_on,
        "fixture_id": None,
        "round_number": None if played_on is None else played_on.day,
    }


@PARITY
@given(stored=st.lists(contribution, max_size=6), key=st.sampled_from(["g1", "g2", "f1"]))
def test_contributions_locked_are_the_orm_s_in_team_order(league, stored, key):
    division, _, _, teams, _ = league
    with rolled_back():
        seen = set()
        for team, match, values, played_on in stored:
            if (team, match) not in seen:
                seen.add((team, match))
                StandingContribution.objects.create(
                    **_contribution_row(division, teams, team, match, values, played_on)
                )
        found = store.contributions_locked(key=key)
        wanted = StandingContribution.objects.filter(match_key=key).order_by("team_id")
        assert list(map(fields_of, found)) == list(map(fields_of, wanted))


@PARITY
@given(
    stored=st.lists(contribution, max_size=4),
    written=st.lists(contribution, min_size=1, max_size=4),
)
def test_contributions_write_leaves_what_the_orm_s_update_or_create_leaves(league, stored, written):
    division, _, _, teams, _ = league
    with rolled_back():
        seen = set()
        for team, match, values, played_on in stored:
            if (team, match) not in seen:
                seen.add((team, match))
                StandingContribution.objects.create(
                    **_contribution_row(division, teams, team, match, values, played_on)
                )
        rows, unique = [], set()
        for spec in written:
            if spec[:2] not in unique:
                unique.add(spec[:2])
                rows.append(_contribution_row(division, teams, *spec))
        upsert = bool(unique & seen)

        def by_orm() -> None:
            for row in rows:
                StandingContribution.objects.update_or_create(
                    team_id=row["team_id"],
                    match_key=row["match_key"],
                    defaults={k: v for k, v in row.items() if k not in ("team_id", "match_key")},
                )

        wanted = after(by_orm, StandingContribution)
        assert (
            after(lambda: store.contributions_write(rows, upsert=upsert), StandingContribution)
            == wanted
        )


@PARITY
@given(
    stored=st.lists(st.none() | counters, min_size=4, max_size=4),
    deltas=st.dictionaries(
        st.integers(0, 3),
        st.dictionaries(st.sampled_from(Counters.COUNTERS), st.integers(-3, 3), min_size=1),
        max_size=4,
    ),
)
def test_standings_add_leaves_what_the_orm_s_f_increments_leave(league, stored, deltas):
    division, _, _, teams, _ = league
    with rolled_back():
        for team, row in zip(teams, stored, strict=True):
            if row is not None:
                TeamStanding.objects.create(
                    club_id=division.club_id, division=division, team=team, **row
                )
        by_team = {teams[i].pk: delta for i, delta in deltas.items()}
        rows = {pk: {"club_id": division.club_id, "division_id": division.pk} for pk in by_team}

        def by_orm() -> None:
            for team_id, delta in sorted(by_team.items()):
                standing, _ = TeamStanding.objects.get_or_create(
                    team_id=team_id,
                    defaults={"club_id": division.club_id, "division_id": division.pk},
                )
                TeamStanding.objects.filter(pk=standing.pk).update(
                    **{name: F(name) + change for name, change in delta.items()}
                )

        wanted = after(by_orm, TeamStanding)
        assert after(lambda: store.standings_add(by_team, rows), TeamStanding) == wanted


# --- a game's leaderboard lines and the totals -------------------------------------------------

line_specs = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from("AB"), stats, st.none() | dates), max_size=4
)


def _lines(division, game, players, specs) -> tuple[list[dict], list[dict]]:
    """Player lines and partnership lines of ``game`` as the write-through makes them."""
    player_lines, side_lines, seen, sides = [], [], set(), set()
    for seat, side, values, played_on in specs:
        common = {
            "club_id": division.club_id,
            "season_id": division.season_id,
            "division_id": division.pk,
            "game_id": game.pk,
            "team_id": None,
            "side": side,
            "played_on": played_on,
            **values,
        }
        if seat not in seen:
            seen.add(seat)
            player_lines.append({**common, "player_id": players[seat].pk, "seat": seat})
        if side not in sides:
            sides.add(side)
            one, two = sorted((players[seat].pk, players[(seat + 2) % 4].pk))
            side_lines.append(
                {
                    **common,
                    "key": f"{one}-{two}",
                    "player_1_id": one,
                    "player_2_id": two,
                    "player_3_id": None,
                }
            )
    return player_lines, side_lines


@PARITY
@given(specs=line_specs, elsewhere=line_specs)
def test_game_lines_are_the_orm_s(league, specs, elsewhere):
    division, _, _, _, players = league
    with rolled_back():
        game, second = _game(division, "finished"), _game(division, "finished")
        for g, s in ((game, specs), (second, elsewhere)):
            player_lines, side_lines = _lines(division, g, players, s)
            PlayerGameStat.objects.bulk_create(PlayerGameStat(**line) for line in player_lines)
            PartnershipGameStat.objects.bulk_create(
                PartnershipGameStat(**line) for line in side_lines
            )
        found = store.game_lines(game_id=game.pk)
        wanted = (
            list(
                PlayerGameStat.objects.filter(game=game).values(
                    *store.LINE_COLUMNS, *store.PLAYER_COLUMNS
                )
            ),
            list(
                PartnershipGameStat.objects.filter(game=game).values(
                    *store.LINE_COLUMNS, *store.PARTNERSHIP_COLUMNS
                )
            ),
        )
        for got, want in zip(found, wanted, strict=True):
            assert sorted(got, key=repr) == sorted(want, key=repr)


def _store_totals(division, players, totals) -> None:
    for board, first, values in totals:
        key = str(players[first].pk) if board == "players" else f"{players[0].pk}-{players[2].pk}"
        LeaderboardTotal.objects.get_or_create(
            division=division,
            board=board,
            key=key,
            defaults={
                "club_id": division.club_id,
                "season_id": division.season_id,
                "player_1_id": players[first].pk if board == "players" else players[0].pk,
                "player_2_id": None if board == "players" else players[2].pk,
                **values,
            },
        )


totals_specs = st.lists(
    st.tuples(
        st.sampled_from(["players", "partnerships"]),
        st.integers(0, 3),
        st.fixed_dictionaries({n: small for n in (*LeaderboardTotal.SUMS, "best_meld")}),
    ),
    max_size=4,
)


@PARITY
@given(specs=line_specs, stored=totals_specs, adds=totals_specs)
def test_game_lines_write_leaves_what_the_orm_leaves(league, specs, stored, adds):
    division, _, _, _, players = league
    with rolled_back():
        game = _game(division, "finished")
        _store_totals(division, players, stored)
        player_lines, side_lines = _lines(division, game, players, specs)
        totals, keys = [], set()
        for board, first, values in adds:
            pair = (players[0].pk, players[2].pk, None)
            key = str(players[first].pk) if board == "players" else f"{pair[0]}-{pair[1]}"
            if (board, key) in keys:
                continue
            keys.add((board, key))
            who = (players[first].pk, None, None) if board == "players" else pair
            sums = [values[n] for n in LeaderboardTotal.SUMS]
            totals.append((board, key, *who, *sums, values["best_meld"]))
        totals.sort()

        def by_orm() -> None:
            PlayerGameStat.objects.bulk_create(PlayerGameStat(**line) for line in player_lines)
            PartnershipGameStat.objects.bulk_create(
                PartnershipGameStat(**line) for line in side_lines
            )
            for board, key, one, two, three, *numbers in totals:
                *sums, best = numbers
                total, _ = LeaderboardTotal.objects.get_or_create(
                    division=division,
                    board=board,
                    key=key,
                    defaults={
                        "club_id": division.club_id,
                        "season_id": division.season_id,
                        "player_1_id": one,
                        "player_2_id": two,
                        "player_3_id": three,
                        "best_meld": 0,
                    },
                )
                LeaderboardTotal.objects.filter(pk=total.pk).update(
                    best_meld=max(total.best_meld, best),
                    **{n: F(n) + v for n, v in zip(LeaderboardTotal.SUMS, sums, strict=True)},
                )

        def by_store() -> None:
            store.game_lines_write(
                players=player_lines,
                sides=side_lines,
                club_id=division.club_id,
                season_id=division.season_id,
                division_id=division.pk,
                totals=totals,
            )

        models = (PlayerGameStat, PartnershipGameStat, LeaderboardTotal)
        assert after(by_store, *models) == after(by_orm, *models)


@PARITY
@given(
    specs=line_specs,
    stored=totals_specs,
    lowered=st.sets(st.integers(0, 3)),
    shrunk=st.sets(st.integers(0, 3)),
)
def test_totals_settle_leaves_what_the_orm_leaves(league, specs, stored, lowered, shrunk):
    division, _, _, _, players = league
    with rolled_back():
        game = _game(division, "finished")
        player_lines, side_lines = _lines(division, game, players, specs)
        PlayerGameStat.objects.bulk_create(PlayerGameStat(**line) for line in player_lines)
        PartnershipGameStat.objects.bulk_create(PartnershipGameStat(**line) for line in side_lines)
        _store_totals(division, players, stored)
        pair = f"{players[0].pk}-{players[2].pk}"
        ident = {i: ("players", str(players[i].pk)) for i in range(4)}
        low = {ident[i] for i in lowered} | ({("partnerships", pair)} if 0 in lowered else set())
        gone = {ident[i] for i in shrunk} | ({("partnerships", pair)} if 1 in shrunk else set())

        def by_orm() -> None:
            for board, key in low:
                lines = (
                    PlayerGameStat.objects.filter(division=division, player_id=int(key))
                    if board == "players"
                    else PartnershipGameStat.objects.filter(division=division, key=key)
                )
                best = lines.aggregate(best=Max("best_meld"))["best"] or 0
                LeaderboardTotal.objects.filter(division=division, board=board, key=key).update(
                    best_meld=best
                )
            for board, key in gone:
                LeaderboardTotal.objects.filter(
                    division=division, board=board, key=key, games=0
                ).delete()

        wanted = after(by_orm, LeaderboardTotal)
        assert (
            after(
                lambda: store.totals_settle(division_id=division.pk, lowered=low, shrunk=gone),
                LeaderboardTotal,
            )
            == wanted
        )


@PARITY
@given(specs=line_specs, elsewhere=line_specs)
def test_totals_insert_summed_stores_the_orm_s_sums(league, specs, elsewhere):
    division, other, _, _, players = league
    with rolled_back():
        for where, lines in ((division, specs), (other, elsewhere)):
            game = _game(where, "finished")
            player_lines, side_lines = _lines(where, game, players, lines)
            PlayerGameStat.objects.bulk_create(PlayerGameStat(**line) for line in player_lines)
            PartnershipGameStat.objects.bulk_create(
                PartnershipGameStat(**line) for line in side_lines
            )
        store.totals_insert_summed(division_ids=[division.pk])
        stored = LeaderboardTotal.objects.values_list(*store.TOTAL_COLUMNS)
        wanted = reference.totals_summed(division_ids=[division.pk])
        assert sorted(stored, key=repr) == sorted(wanted, key=repr)


def test_the_check_recomputes_through_the_orm_not_the_store(league, monkeypatch):
    """``standings_check`` must not share the statement it checks: with standings built
    right, a store whose read of the games lost every row changes nothing in the check."""
    from clabber_league.standings.services.rebuild import standings_differences, standings_rebuild

    division, _, _, teams, players = league
    (played,) = _games_with_parts(division, teams, players, [(Game.Status.CONFIRMED, True, [])])
    Game.objects.filter(pk=played.pk).update(
        winner="A", score_a=1001, played_on=timezone.localdate()
    )
    standings_rebuild(division=division)
    assert TeamStanding.objects.filter(division=division).count() == 2
    monkeypatch.setattr(store, "game_parts", lambda **kw: [])
    assert standings_differences(division=division) == []
