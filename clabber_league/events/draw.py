"""The club night's draw: who sits at which table, with whom, each round (pure Python).

Individual nights (``draw_round``): players arrive on their own and are drawn to tables
every round. A table of four is two sides, seats 0 and 2 against 1 and 3 (clockwise), so a
player's partner is the player opposite. A table of three (a three-hand form of the game)
has everyone playing alone. The planner decides:

* **Table sizes.** Tables of ``table_size`` (4, or 3 for a game that is always three-hand).
  With four-hand tables and a count that is not a multiple of four, ``three_hand=True``
  makes as few tables of three as possible (13 = 4 + 3 + 3 + 3, 14 = 4 + 4 + 3 + 3); without
  it the remainder sits out. Five players with ``three_hand`` are one table of four and one
  sit-out (five cannot be made of threes and fours).
* **Who sits out.** The players who have sat out least this night, then least this season,
  then by the seeded draw; so nobody sits out twice before everyone present has once.
* **Who plays with and against whom.** Round 1 is a random shuffle from the night's shown
  seed. Every round then improves that shuffle by local search (swaps of two seats, with
  restarts from perturbed layouts) on a weighted count of repeats, most important first:
  players kept apart at one table (``keep_apart``), partners already paired this night,
  partners already paired this season, a second seat at a table of three this night,
  opponents already met this night, opponents already met this season. Each weight is a
  cost per earlier meeting, so a pair that met twice is avoided more than one that met once.
  Partners never repeat on a night while every player has had fewer partners than half the
  players present (then a draw without a repeat always exists, and the search finds it);
  later too whenever a draw without one exists (for up to 24 players at tables of four an
  exact search backs the local one up).
  Beyond that a round-by-round planner can reach a dead end: a full rotation (11 rounds
  for 12 players, each partnering everyone once) needs its earlier rounds chosen for it,
  and this planner, which sees only what happened, then repeats a partner in some nights.
* **Who deals first** at each table: the player who has dealt first least often this night,
  ties by the seeded draw.

Reproducible: every random choice comes from ``random.Random(f"{seed}:{round_number}")``,
fed in a fixed order (players sorted by id, no set or dict iteration order); the search is
bounded by a count of moves, never by the clock. The same players, seed, round and history
give the same draw on any machine and any Python 3.

Fixed pairs (``pairs_round``) are the same objects with each "seat" a pair: a table is
``(pair, pair)``, the first pair sitting North-South (seats 0 and 2 of the four), the second
East-West. ``method="mitchell"``: North-South pairs stay at their table and East-West pairs
move up one table a round (stations come from the round-1 draw of the seed, so they hold
all night while the same pairs play); an odd pair out has a bye. Once the movement comes
round (after as many rounds as tables) or the pairs change so that it would bring a
rematch, the round is re-paired in movement order, each pair meeting the first it has not
met (the movement's own tables where they fit). ``method="swiss"``: pairs ranked on the
night's ``scores`` (round 1 by the seeded draw) meet the nearest-ranked pair they have not
met yet; the bye goes to the lowest-ranked pair that has had fewest byes.
Rematches happen only where no pairing without one was found (``opponent_repeats_night``).

The caller (``events`` services) stores the rounds and rebuilds a :class:`History` from
them with :meth:`History.from_rounds`: any objects with ``tables`` (each with ``seats`` and
``first_dealer``) and ``sit_outs`` will do. ``season`` there means the season's *other*
nights (not this one), so nothing is counted twice.

Bad input raises :class:`DrawError` (a ``core.errors.ServiceError``: the API's one error
body); the messages are module constants.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from clabber_league.core.errors import ServiceError

DUPLICATE_PLAYER = "A player is checked in twice: {ids}."
TOO_FEW_PLAYERS = "A draw needs at least {n} players present; there are {have}."
BAD_TABLE_SIZE = "Tables are of 3 or 4 players."
BAD_ROUND = "Rounds are numbered from 1."
BAD_METHOD = "The movement is one of: {methods}."
DUPLICATE_PAIR = "A pair is entered twice: {ids}."
TOO_FEW_PAIRS = "A round of fixed pairs needs at least two pairs."

METHODS = ("mitchell", "swiss")

#: The version of this planner a stored round names (``Round.draw_algorithm``): the same
#: seed, entrants, table size and history give the same draw under the same version. Bump
#: it whenever a change here would draw any input differently.
ALGORITHM = "clabber-draw/1"

# The weights of the search's cost: one unit per earlier meeting of the pair.
W_APART = 10**9  # two players asked to be kept apart at one table
W_NIGHT_PARTNER = 10**6  # partners again on the same night
W_SEASON_PARTNER = 10**3  # partners again in the season (this night's earlier rounds count)
W_THREE_HAND = 200  # a second (third...) turn at a table of three this night
W_NIGHT_OPPONENT = 20  # opponents again on the same night
W_SEASON_OPPONENT = 1  # opponents again in the season

#: Swap evaluations the search may spend on one round, per player (bounded, not timed).
SEARCH_EVALUATIONS_PER_PLAYER = 1_250
#: Shakes in a row without a better layout after which the search stops.
SEARCH_PATIENCE = 12


class DrawError(ServiceError):
    """A draw that cannot be made from this input (nothing is drawn)."""


Pair = frozenset[int]


@dataclass(frozen=True)
class Table:
    """One table of a round.

    ``seats`` are ids clockwise: players (individual nights) or pairs (fixed pairs, two
    "seats": North-South then East-West). At a table of four seats 0 and 2 are partners
    (side A) against 1 and 3 (side B); at any other table everyone is an opponent.
    ``first_dealer`` is the index in ``seats`` of who deals first (for fixed pairs, the
    pair one of whose players deals first).
    """

    number: int  # 1-based
    seats: tuple[int, ...]
    first_dealer: int

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides: ``((s0, s2), (s1, s3))`` at a table of four, else one per seat."""
        if len(self.seats) == 4:
            return (self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])
        return tuple((s,) for s in self.seats)

    @property
    def dealer(self) -> int:
        """The id of who deals first."""
        return self.seats[self.first_dealer]


@dataclass(frozen=True)
class RoundDraw:
    """One round's draw and how well it rotated.

    The ``*_repeats_*`` figures count this round's partnerships (or meetings of opponents)
    that already happened earlier: on this night, or anywhere in the season (this night
    included). ``cost`` is the search's weighted total (0: nothing repeated at all).
    """

    round: int
    seed: str
    tables: tuple[Table, ...]
    sit_outs: tuple[int, ...]
    partner_repeats_night: int = 0
    partner_repeats_season: int = 0
    opponent_repeats_night: int = 0
    opponent_repeats_season: int = 0
    cost: int = 0
    kind: str = "individual"  # or "pairs"

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone seated this round, table by table."""
        return tuple(p for t in self.tables for p in t.seats)


def _pairs_of(seats: Sequence[int]) -> tuple[list[Pair], list[Pair]]:
    """(partners, opponents) at one table."""
    if len(seats) == 4:
        a, b, c, d = seats
        return (
            [frozenset((a, c)), frozenset((b, d))],
            [frozenset((a, b)), frozenset((a, d)), frozenset((c, b)), frozenset((c, d))],
        )
    return [], [frozenset(p) for p in combinations(seats, 2)]


@dataclass
class History:
    """What already happened, as counts: this night's rounds so far and the season's
    other nights. Build it with :meth:`from_rounds` (or :meth:`add` round by round)."""

    night_partners: Counter[Pair] = field(default_factory=Counter)
    night_opponents: Counter[Pair] = field(default_factory=Counter)
    season_partners: Counter[Pair] = field(default_factory=Counter)
    season_opponents: Counter[Pair] = field(default_factory=Counter)
    sit_outs: Counter[int] = field(default_factory=Counter)  # this night
    season_sit_outs: Counter[int] = field(default_factory=Counter)  # other nights
    first_deals: Counter[int] = field(default_factory=Counter)  # this night
    three_hand: Counter[int] = field(default_factory=Counter)  # seats at tables of 3, night

    @classmethod
    def from_rounds(cls, night: Iterable[object] = (), season: Iterable[object] = ()) -> History:
        """Counts from stored rounds: ``night`` this night's earlier rounds, ``season`` the
        rounds of the season's other nights. Each round needs ``tables`` (with ``seats``
        and ``first_dealer``) and ``sit_outs``, like :class:`RoundDraw`."""
        history = cls()
        for r in night:
            history.add(r)
        for r in season:
            history.add(r, night=False)
        return history

    def add(self, round_: object, *, night: bool = True) -> None:
        """Count one more round (of this night, or with ``night=False`` of another)."""
        partners_c = self.night_partners if night else self.season_partners
        opponents_c = self.night_opponents if night else self.season_opponents
        tables = list(round_.tables)  # type: ignore[attr-defined]
        mixed = len({len(t.seats) for t in tables}) > 1
        for table in tables:
            partners, opponents = _pairs_of(table.seats)
            partners_c.update(partners)
            opponents_c.update(opponents)
            if night:
                self.first_deals[table.seats[table.first_dealer]] += 1
                if mixed and len(table.seats) == 3:
                    self.three_hand.update(table.seats)
        (self.sit_outs if night else self.season_sit_outs).update(round_.sit_outs)  # type: ignore[attr-defined]


# -- individual nights ----------------------------------------------------------------------


def table_sizes(n: int, *, table_size: int = 4, three_hand: bool = False) -> tuple[int, ...]:
    """The sizes of the tables for ``n`` players, largest first; whoever is left sits out.
    Raises :class:`DrawError` when not even one table can be made."""
    if table_size not in (3, 4):
        raise DrawError.one("table_size", BAD_TABLE_SIZE)
    if table_size == 3:
        sizes = (3,) * (n // 3)
    else:
        threes = (0, 3, 2, 1)[n % 4] if three_hand else 0
        if 3 * threes > n:  # 1, 2 or 5 players: no mix of threes and fours fits
            threes = 1 if three_hand and n == 3 else 0
        sizes = (4,) * ((n - 3 * threes) // 4) + (3,) * threes
    if not sizes:
        need = 3 if table_size == 3 or three_hand else 4
        raise DrawError.one("players", TOO_FEW_PLAYERS.format(n=need, have=n))
    return sizes


def _check_ids(ids: Sequence[int], field_name: str, message: str) -> list[int]:
    seen = Counter(ids)
    twice = sorted(i for i, c in seen.items() if c > 1)
    if twice:
        raise DrawError.one(field_name, message.format(ids=", ".join(map(str, twice))))
    return sorted(ids)


def _rng(seed: str, round_number: int) -> random.Random:
    if round_number < 1:
        raise DrawError.one("round_number", BAD_ROUND)
    return random.Random(f"{seed}:{round_number}")


def draw_round(
    players: Sequence[int],
    *,
    round_number: int,
    seed: str,
    history: History | None = None,
    table_size: int = 4,
    three_hand: bool = False,
    keep_apart: Collection[Collection[int]] = (),
    effort: float = 1.0,
) -> RoundDraw:
    """Draw one round of an individual night for the ``players`` present (ids).

    ``keep_apart``: groups (usually pairs) of players never to seat at one table if it can
    be helped.
    ``effort`` scales the search's move budget (1.0 is the default: a 64-player round of
    a season takes about 0.1 s of CPU, and a longer search finds no fewer repeats)."""
    history = history or History()
    everyone = _check_ids(players, "players", DUPLICATE_PLAYER)
    rng = _rng(seed, round_number)
    sizes = table_sizes(len(everyone), table_size=table_size, three_hand=three_hand)
    seated_count = sum(sizes)

    # Who sits out: fewest this night, then fewest this season, then the draw.
    tiebreak = {p: rng.random() for p in everyone}
    by_turn = sorted(
        everyone, key=lambda p: (history.sit_outs[p], history.season_sit_outs[p], tiebreak[p])
    )
    resting = len(everyone) - seated_count
    sit_outs = tuple(sorted(by_turn[:resting]))
    seated = sorted(by_turn[resting:])

    layout = seated[:]
    rng.shuffle(layout)  # round 1 at random; later rounds start from a random layout too
    apart = {frozenset(two) for group in keep_apart for two in combinations(set(group), 2)}
    search = _Search(layout, sizes, history, apart, mixed=len(set(sizes)) > 1)
    best = search.run(
        rng,
        evaluations=int(SEARCH_EVALUATIONS_PER_PLAYER * len(layout) * effort),
        patience=max(1, round(SEARCH_PATIENCE * effort)),
    )
    if set(sizes) == {4} and _night_repeats(best, history):
        # The search missed (a sparse choice of new partners, rare): an exact search for
        # a pairing without a repeat, and the search again from the tables it makes.
        pairing = _partnering_without_repeats(seated, history)
        if pairing is not None:
            tables_of_two = zip(pairing[::2], pairing[1::2], strict=True)
            search.start = search.index_layout(
                [seat for (a, c), (b, d) in tables_of_two for seat in (a, b, c, d)]
            )
            best = search.run(
                rng,
                evaluations=int(SEARCH_EVALUATIONS_PER_PLAYER * len(layout) * effort),
                patience=max(1, round(SEARCH_PATIENCE * effort)),
            )

    tables = []
    start = 0
    for number, size in enumerate(sizes, start=1):
        seats = tuple(best[start : start + size])
        start += size
        fewest = min(history.first_deals[p] for p in seats)
        candidates = [i for i, p in enumerate(seats) if history.first_deals[p] == fewest]
        tables.append(Table(number, seats, candidates[rng.randrange(len(candidates))]))
    return _summarise(round_number, seed, tables, sit_outs, history, search.total(best))


def _night_repeats(layout: Sequence[int], history: History) -> int:
    """Partnerships in a layout of tables of four that already happened this night."""
    return sum(
        1
        for k in range(0, len(layout), 4)
        for pair in (frozenset(layout[k : k + 3 : 2]), frozenset(layout[k + 1 : k + 4 : 2]))
        if history.night_partners[pair]
    )


#: The exact search for a pairing without a repeated partner: up to this many players
#: (beyond, a draw without a repeat is easy for the local search), and this many nodes.
PAIRING_MAX_PLAYERS = 24
PAIRING_NODE_LIMIT = 5_000


def _partnering_without_repeats(
    players: Sequence[int], history: History
) -> list[tuple[int, int]] | None:
    """Partners for everyone, none partnered before this night, or None if none was found.

    Depth first, the player with fewest possible partners first (the usual way to find a
    matching in a sparse graph by backtracking), within :data:`PAIRING_NODE_LIMIT` nodes."""
    if len(players) > PAIRING_MAX_PLAYERS:
        return None
    allowed = {
        p: frozenset(q for q in players if q != p and not history.night_partners[frozenset((p, q))])
        for p in players
    }
    nodes = 0

    def extend(left: frozenset[int]) -> list[tuple[int, int]] | None:
        nonlocal nodes
        if not left:
            return []
        nodes += 1
        if nodes > PAIRING_NODE_LIMIT:
            return None
        first = min(sorted(left), key=lambda p: len(allowed[p] & left))
        options = sorted(allowed[first] & left, key=lambda q: (len(allowed[q] & left), q))
        for other in options:
            rest = extend(left - {first, other})
            if rest is not None:
                return [(first, other), *rest]
        return None

    return extend(frozenset(players))


def _summarise(
    round_number: int,
    seed: str,
    tables: Sequence[Table],
    sit_outs: Sequence[int],
    history: History,
    cost: int,
    kind: str = "individual",
) -> RoundDraw:
    pn = ps = on = os_ = 0
    for table in tables:
        partners, opponents = _pairs_of(table.seats)
        pn += sum(1 for p in partners if history.night_partners[p])
        ps += sum(1 for p in partners if history.night_partners[p] + history.season_partners[p])
        on += sum(1 for p in opponents if history.night_opponents[p])
        os_ += sum(1 for p in opponents if history.night_opponents[p] + history.season_opponents[p])
    return RoundDraw(
        round=round_number,
        seed=seed,
        tables=tuple(tables),
        sit_outs=tuple(sit_outs),
        partner_repeats_night=pn,
        partner_repeats_season=ps,
        opponent_repeats_night=on,
        opponent_repeats_season=os_,
        cost=cost,
        kind=kind,
    )


class _Search:
    """Iterated local search over seatings: players in a flat list, table by table.

    A move swaps two seats (at one table, which changes who partners whom, or at two
    tables). Costs are pairwise, so a swap's gain needs only the two players' neighbours:
    a dozen look-ups in precomputed matrices. Every seat has three neighbours: the seat
    across (the partner) and two opponents. A seat at a table of three has a blank "across"
    instead, a dummy player whose partner cost is the player's turns at tables of three, so
    one formula serves every seat.

    A descent makes every swap that lowers the cost until none does (driven by a queue of
    the tables that changed); then two random swaps shake the best layout found and the
    descent starts again from the tables they touched. It stops when the cost is zero
    (nothing repeats), when ``patience`` shakes in a row found nothing better, or when the
    move budget is spent.
    """

    def __init__(
        self,
        layout: list[int],
        sizes: Sequence[int],
        history: History,
        apart: set[Pair],
        *,
        mixed: bool,
    ) -> None:
        self.ids = sorted(layout)
        index = {p: i for i, p in enumerate(self.ids)}
        n = len(self.ids)
        self.start = [index[p] for p in layout] + [n]  # the dummy sits in the last seat
        # partner[i][j], opponent[i][j]: the cost of i and j as partners / opponents.
        partner = [[0] * (n + 1) for _ in range(n + 1)]
        opponent = [[0] * (n + 1) for _ in range(n + 1)]
        for i, j in combinations(range(n), 2):
            pair = frozenset((self.ids[i], self.ids[j]))
            np_, sp = history.night_partners[pair], history.season_partners[pair]
            no, so = history.night_opponents[pair], history.season_opponents[pair]
            together = W_APART if pair in apart else 0
            partner[i][j] = partner[j][i] = (
                together + W_NIGHT_PARTNER * np_ + W_SEASON_PARTNER * (np_ + sp)
            )
            opponent[i][j] = opponent[j][i] = (
                together + W_NIGHT_OPPONENT * no + W_SEASON_OPPONENT * (no + so)
            )
        if mixed:
            for i, p in enumerate(self.ids):
                partner[i][n] = W_THREE_HAND * history.three_hand[p]
        self.partner, self.opponent = partner, opponent
        # For every seat: its table, the seat across (the dummy's at a table of three) and
        # the two seats of its opponents.
        self.table_of: list[int] = []
        self.across: list[int] = []
        self.beside: list[tuple[int, int]] = []
        self.table_seats: list[list[int]] = []
        pos = 0
        for t, size in enumerate(sizes):
            seats = list(range(pos, pos + size))
            self.table_seats.append(seats)
            for k, s in enumerate(seats):
                self.table_of.append(t)
                across = seats[(k + 2) % 4] if size == 4 else n
                self.across.append(across)
                first, second = (x for x in seats if x != s and x != across)
                self.beside.append((first, second))
            pos += size

    def index_layout(self, layout_ids: Sequence[int]) -> list[int]:
        """A layout of ids as the search holds it (indices, and the dummy's seat)."""
        index = {p: i for i, p in enumerate(self.ids)}
        return [index[p] for p in layout_ids] + [len(self.ids)]

    def total(self, layout_ids: Sequence[int]) -> int:
        index = {p: i for i, p in enumerate(self.ids)}
        return self._total([index[p] for p in layout_ids] + [len(self.ids)])

    def _total(self, seating: list[int]) -> int:
        """The layout's cost: each pair is seen from both ends, the dummy from one."""
        partner, opponent = self.partner, self.opponent
        doubled = three = 0
        for s in range(len(seating) - 1):
            who = seating[s]
            b1, b2 = self.beside[s]
            doubled += opponent[who][seating[b1]] + opponent[who][seating[b2]]
            mate = seating[self.across[s]]
            if self.across[s] == len(seating) - 1:
                three += partner[who][mate]
            else:
                doubled += partner[who][mate]
        return doubled // 2 + three

    def _swap_gain_same_table(self, seating: list[int], s: int, t: int) -> int:
        if self.across[s] == t:
            return 0  # swapping partners changes nothing
        before = self._total_of_table(seating, s)
        seating[s], seating[t] = seating[t], seating[s]
        after = self._total_of_table(seating, s)
        seating[s], seating[t] = seating[t], seating[s]
        return before - after

    def _total_of_table(self, seating: list[int], s: int) -> int:
        cost = 0
        last = len(seating) - 1
        for seat in self.table_seats[self.table_of[s]]:
            who = seating[seat]
            b1, b2 = self.beside[seat]
            cost += self.opponent[who][seating[b1]] + self.opponent[who][seating[b2]]
            mate = self.partner[who][seating[self.across[seat]]]
            cost += 2 * mate if self.across[seat] == last else mate
        return cost // 2

    def run(self, rng: random.Random, *, evaluations: int, patience: int) -> list[int]:
        n = len(self.start) - 1
        seating = self.start[:]
        cost = self._total(seating)
        best, best_cost = seating[:], cost
        if n < 2:
            return [self.ids[i] for i in best[:n]]
        order = list(range(n))
        rng.shuffle(order)  # the order in which a seat's swaps are tried
        tables = list(range(len(self.table_seats)))
        rng.shuffle(tables)
        spent = 0
        stale = 0
        while True:
            cost, spent = self._descend(seating, cost, tables, order, spent, evaluations)
            if cost < best_cost:
                best, best_cost = seating[:], cost
                stale = 0
            else:
                stale += 1
            if best_cost == 0 or spent >= evaluations or stale >= patience:
                break
            # Shake the best layout found with two random swaps and descend again from the
            # tables they touched.
            seating = best[:]
            touched: list[int] = []
            for _ in range(2):
                s, t = rng.randrange(n), rng.randrange(n)
                seating[s], seating[t] = seating[t], seating[s]
                touched += [self.table_of[s], self.table_of[t]]
            cost = self._total(seating)
            tables = list(dict.fromkeys(touched))
        return [self.ids[i] for i in best[:n]]

    def _descend(
        self,
        seating: list[int],
        cost: int,
        tables: list[int],
        order: list[int],
        spent: int,
        evaluations: int,
    ) -> tuple[int, int]:
        """Swap seats while a swap lowers the cost. Only swaps that involve a table that
        changed can have become worth making, so a queue of changed tables drives it: each
        of a table's seats tries a swap with every seat; an improving swap queues both of
        its tables again. Returns the cost and the evaluations spent so far."""
        partner, opponent = self.partner, self.opponent
        across, beside, table_of = self.across, self.beside, self.table_of
        queue = deque(tables)
        queued = set(tables)
        while queue and cost > 0 and spent < evaluations:
            table = queue.popleft()
            queued.discard(table)
            for s in self.table_seats[table]:
                for t in order:
                    if table_of[s] == table_of[t]:
                        if s == t:
                            continue
                        gain = self._swap_gain_same_table(seating, s, t)
                    else:
                        x, y = seating[s], seating[t]
                        px, ox, py, oy = partner[x], opponent[x], partner[y], opponent[y]
                        a, (b, c) = seating[across[s]], beside[s]
                        b, c = seating[b], seating[c]
                        gain = px[a] + ox[b] + ox[c] - py[a] - oy[b] - oy[c]
                        a, (b, c) = seating[across[t]], beside[t]
                        b, c = seating[b], seating[c]
                        gain += py[a] + oy[b] + oy[c] - px[a] - ox[b] - ox[c]
                    if gain > 0:
                        seating[s], seating[t] = seating[t], seating[s]
                        cost -= gain
                        for changed in (table, table_of[t]):
                            if changed not in queued:
                                queue.append(changed)
                                queued.add(changed)
                spent += len(order)
        return cost, spent


# -- fixed pairs ----------------------------------------------------------------------------


def pairs_round(
    pairs: Sequence[int],
    *,
    round_number: int,
    seed: str,
    method: str,
    scores: Mapping[int, float] | None = None,
    history: History | None = None,
    station_seed: str | None = None,
) -> RoundDraw:
    """One round for fixed pairs (ids): each table is ``(north_south, east_west)``.

    ``station_seed``: the seed whose round-1 draw places the Mitchell stations (the night's
    first round's seed when every round has its own; default ``seed``)."""
    if method not in METHODS:
        raise DrawError.one("method", BAD_METHOD.format(methods=", ".join(METHODS)))
    history = history or History()
    field_ = _check_ids(pairs, "pairs", DUPLICATE_PAIR)
    if len(field_) < 2:
        raise DrawError.one("pairs", TOO_FEW_PAIRS)
    rng = _rng(seed, round_number)
    if method == "mitchell":
        matches, byes = _mitchell(field_, round_number, station_seed or seed)
        if any(history.night_opponents[frozenset(m)] for m in matches):
            # The movement has come round (or the pairs changed): re-pair in its order
            # with the fewest rematches, keeping its tables where they fit.
            matches = _fewest_rematches([p for m in matches for p in m], history)
    else:
        matches, byes = _swiss(field_, rng, scores or {}, history)
    tables = [Table(n, m, rng.randrange(2)) for n, m in enumerate(matches, start=1)]
    return _summarise(round_number, seed, tables, byes, history, 0, kind="pairs")


def _mitchell(field_: list[int], round_number: int, seed: str) -> tuple[list, tuple]:
    """North-South pairs stay, East-West pairs move up one table a round.

    The stations come from the round-1 draw of the seed, so they hold all night for the
    same pairs. With an odd number of pairs the last table's North-South seat is empty: the
    East-West pair that comes to it sits out, and the other tables keep their numbers.
    After as many rounds as tables the movement starts over (``pairs_round`` then re-pairs
    it to avoid the rematches)."""
    order: list[int | None] = list(field_)
    random.Random(f"{seed}:1").shuffle(order)
    n_tables = (len(order) + 1) // 2
    if len(order) % 2:
        order.insert(n_tables - 1, None)  # the phantom: North-South at the last table
    ns, ew = order[:n_tables], order[n_tables:]
    shift = (round_number - 1) % n_tables
    matches, byes = [], []
    for k in range(n_tables):
        a, b = ns[k], ew[(k - shift) % n_tables]
        if a is None or b is None:
            byes.append(b if a is None else a)
        else:
            matches.append((a, b))
    return matches, tuple(byes)


#: Search nodes the Swiss pairing may visit per allowed number of rematches.
SWISS_NODE_LIMIT = 20_000


def _swiss(
    field_: list[int], rng: random.Random, scores: Mapping[int, float], history: History
) -> tuple[list, tuple]:
    """Swiss pairing on the night's scores: the highest unpaired pair meets the next
    highest it has not met; a depth-first search backs up when the rest cannot be paired.
    If no pairing without a rematch is found, one with fewest rematches is."""
    tiebreak = {p: rng.random() for p in field_}
    ranked = sorted(field_, key=lambda p: (-scores.get(p, 0.0), tiebreak[p]))
    bye_order: list[int | None] = [None]
    if len(ranked) % 2:
        # The bye: fewest byes first, then the lowest ranked.
        fewest = min(history.sit_outs[p] for p in ranked)
        bye_order = [p for p in reversed(ranked) if history.sit_outs[p] == fewest]
    for allowed in range(len(ranked)):
        for bye in bye_order[:4] if allowed == 0 else bye_order[:1]:
            rest = [p for p in ranked if p != bye]
            found = _swiss_search(rest, history, allowed)
            if found is not None:
                return found, (() if bye is None else (bye,))
    raise AssertionError("a pairing with every rematch allowed always exists")  # pragma: no cover


def _fewest_rematches(order: list[int], history: History) -> list:
    """Pairs in ``order`` (each meets the first it may), with as few rematches as found."""
    for allowed in range(len(order) // 2 + 1):
        found = _swiss_search(order, history, allowed)
        if found is not None:
            return found
    raise AssertionError("a pairing with every rematch allowed always exists")  # pragma: no cover


def _swiss_search(ranked: list[int], history: History, allowed: int) -> list | None:
    nodes = 0

    def extend(left: list[int], budget: int) -> list | None:
        nonlocal nodes
        if not left:
            return []
        nodes += 1
        if nodes > SWISS_NODE_LIMIT:
            return None
        top, rest = left[0], left[1:]
        for k, other in enumerate(rest):
            rematch = history.night_opponents[frozenset((top, other))] > 0
            if rematch and budget == 0:
                continue
            tail = extend(rest[:k] + rest[k + 1 :], budget - rematch)
            if tail is not None:
                return [(top, other), *tail]
        return None

    if allowed >= len(ranked) // 2:  # anything goes: straight down the ranking
        return [(ranked[i], ranked[i + 1]) for i in range(0, len(ranked), 2)]
    return extend(ranked, allowed)
