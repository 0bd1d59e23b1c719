"""A night's money: the takings from entry fees, the prizes by the chosen rule, the hick pot.

Pure Python (no Django), every amount in integer cents. The prize list page, the API and
the tests all call :func:`prizes_award`.

The rules (README "Club nights"; CLUB-NIGHTS.md "Money and prizes"):

* **Takings** are the entry fee times the players who paid (:func:`takings`).
* **The hick pot** (optional; the seed rules' side stakes on hicks): every time a side is
  hicked (set as the maker), each of its players pays the stake into the pot
  (:func:`hick_pot`). The pot joins the prize fund.
* **The prize rule** (:data:`PRIZE_RULES`) says how many prizes and how the fund is split:

  - ``per_four``: one prize per four players (13 players: 3 prizes), at least one;
  - ``top_quarter``: the top quarter of the field is paid, rounded up (13 players: 4);
  - ``shares``: a fixed list of percentages of the fund, best place first
    (``50, 30, 20``); what the list leaves over is not paid out;
  - ``every_fourth``: what klaverjas clubs pay (KLAVERJAS.md 7.7): places 1 to 4, then
    every fourth place (8, 12, 16, ...) down the field;
  - ``fourth_last``: the same and a prize for the last place (the "poedelprijs"; it is
    weighted as the smallest prize and is not paid twice when the last place already has
    a prize).

  With ``per_four``, ``top_quarter``, ``every_fourth`` and ``fourth_last`` the k prizes
  are weighted k, k-1, ..., 1 (three
  prizes: one half, one third, one sixth of the fund). ``payout_percent`` pays only part
  of the fund (the rest stays with the club); ``none`` pays no prizes.
* **Ties.** Players sharing a place share the prizes of the places they cover equally:
  two players level for 2nd share the 2nd and 3rd prizes.
* **Rounding** is always down to the cent, prize by prize and share by share, so the sum
  paid out never exceeds the fund; the cents left over are reported as ``kept``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from clabber_league.rules.errors import gettext_noop

#: The prize rules an event may choose, with the sentence a page shows for each.
PRIZE_RULES: dict[str, str] = {
    "none": gettext_noop("No prizes"),
    "per_four": gettext_noop("One prize per four players"),
    "top_quarter": gettext_noop("The top quarter of the field"),
    "shares": gettext_noop("A fixed list of shares of the fund"),
    "every_fourth": gettext_noop("Places 1 to 4, then every fourth place"),
    "fourth_last": gettext_noop("Places 1 to 4, then every fourth place, and the last place"),
}

#: How a rule's sentence grows with its shares and its payout (pages translate them).
RULE_SHARES = gettext_noop("{rule} ({shares})")
# A brace template, not a %-format: "% o" only looks like one to xgettext.
# xgettext:no-python-format
RULE_PAYOUT = gettext_noop("{rule}; {percent}% of the fund paid out")

MAX_PRIZES = 100  # no rule pays more places than this (bounded work, readable lists)

ERROR_UNKNOWN_RULE = "Choose one of: " + ", ".join(PRIZE_RULES) + "."
ERROR_SHARES = "Give the shares as whole percentages, best place first, adding up to 100 or less."
ERROR_SHARES_MISSING = "The 'shares' rule needs a list of shares."
ERROR_PERCENT = "The payout is a whole percentage from 0 to 100."
ERROR_NEGATIVE = "An amount of money cannot be negative."


class PrizeRuleError(ValueError):
    """A prize rule or amount a club chose that cannot be used; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class PrizeRule:
    """How a night pays out (see the module's docstring)."""

    kind: str = "none"
    shares: tuple[int, ...] = ()
    payout_percent: int = 100

    def __post_init__(self) -> None:
        if self.kind not in PRIZE_RULES:
            raise PrizeRuleError("kind", ERROR_UNKNOWN_RULE)
        if isinstance(self.payout_percent, bool) or not isinstance(self.payout_percent, int):
            raise PrizeRuleError("payout_percent", ERROR_PERCENT)
        if not 0 <= self.payout_percent <= 100:
            raise PrizeRuleError("payout_percent", ERROR_PERCENT)
        if self.kind == "shares":
            if not self.shares:
                raise PrizeRuleError("shares", ERROR_SHARES_MISSING)
            if (
                len(self.shares) > MAX_PRIZES
                or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in self.shares)
                or sum(self.shares) > 100
            ):
                raise PrizeRuleError("shares", ERROR_SHARES)

    @classmethod
    def from_data(cls, data: Mapping[str, object] | None) -> PrizeRule:
        """A rule from stored JSON (``{"kind": ..., "shares": [...], "payout_percent": ..}``);
        ``None`` or ``{}`` is no prizes."""
        if not data:
            return cls()
        shares = data.get("shares") or ()
        if not isinstance(shares, list | tuple):
            raise PrizeRuleError("shares", ERROR_SHARES)
        return cls(
            kind=str(data.get("kind") or "none"),
            shares=tuple(shares),  # type: ignore[arg-type]
            payout_percent=data.get("payout_percent", 100),  # type: ignore[arg-type]
        )

    def describe(self, translate: Callable[[str], str] = str) -> str:
        """The rule in words: English, or in a page's language when it passes its
        ``gettext`` as ``translate`` (the API keeps English)."""
        text = translate(PRIZE_RULES[self.kind])
        if self.kind == "shares":
            shares = ", ".join(f"{s}%" for s in self.shares)
            text = translate(RULE_SHARES).format(rule=text, shares=shares)
        if self.kind != "none" and self.payout_percent != 100:
            text = translate(RULE_PAYOUT).format(rule=text, percent=self.payout_percent)
        return text


@dataclass(frozen=True)
class Award:
    """What one player wins: their place, the prize places they share and the amount."""

    player: int
    position: int
    places: tuple[int, ...]  # the prize places (1-based) this player's place covers
    shared_by: int  # how many players share them (1: not shared)
    amount: int  # cents


@dataclass(frozen=True)
class PrizeList:
    """A night's money from takings to awards; every amount in cents."""

    rule: PrizeRule
    players: int
    takings: int
    hick_pot: int
    fund: int  # takings + hick pot
    prizes: tuple[int, ...]  # the amount of each prize place, best first
    awards: tuple[Award, ...]
    paid_out: int
    kept: int  # fund - paid_out: the club's part and the cents that rounding left

    @property
    def by_player(self) -> dict[int, Award]:
        return {award.player: award for award in self.awards}


def _non_negative(field: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PrizeRuleError(field, ERROR_NEGATIVE)
    return value


def takings(*, fee_cents: int, paid: int) -> int:
    """The entry fees taken: the fee times the players who paid."""
    return _non_negative("entry_fee", fee_cents) * _non_negative("paid", paid)


def hick_pot(hicks: Mapping[int, int], *, stake_cents: int) -> tuple[int, dict[int, int]]:
    """The hick pot and what each player owes to it: ``hicks`` maps a player to the times
    their side was hicked; each hick costs them ``stake_cents``."""
    _non_negative("hick_stake", stake_cents)
    owed = {player: _non_negative("hicks", n) * stake_cents for player, n in hicks.items() if n}
    return sum(owed.values()), owed


def _ranked_prize(place: int) -> bool:
    """Whether ``every_fourth`` pays this place (1 to 4, then every fourth)."""
    return place <= 4 or place % 4 == 0


def prize_places(rule: PrizeRule, players: int) -> tuple[int, ...]:
    """The places (1-based, best first) the rule pays for a field of ``players``."""
    if players <= 0 or rule.kind == "none":
        return ()
    if rule.kind == "per_four":
        count = max(1, players // 4)
    elif rule.kind == "top_quarter":
        count = -(-players // 4)
    elif rule.kind in ("every_fourth", "fourth_last"):
        places = [p for p in range(1, players + 1) if _ranked_prize(p)]
        if rule.kind == "fourth_last" and places[-1] != players:
            places.append(players)
        return tuple(places[:MAX_PRIZES])
    else:
        count = len(rule.shares)
    return tuple(range(1, min(count, players, MAX_PRIZES) + 1))


def prize_count(rule: PrizeRule, players: int) -> int:
    """How many places the rule pays for a field of ``players`` (never more than play)."""
    return len(prize_places(rule, players))


def prize_amounts(rule: PrizeRule, *, fund: int, players: int) -> tuple[int, ...]:
    """The amount of each prize place (in the order of :func:`prize_places`), rounded
    down so they never add up to more than the part of the fund the rule pays out."""
    count = prize_count(rule, players)
    if not count:
        return ()
    paid = fund * rule.payout_percent // 100
    if rule.kind == "shares":
        return tuple(paid * share // 100 for share in rule.shares[:count])
    weights = list(range(count, 0, -1))
    if rule.kind == "fourth_last" and count > 1 and not _ranked_prize(players):
        # The last place's own prize weighs as the smallest ranked prize.
        weights = [*range(count - 1, 0, -1), 1]
    total = sum(weights)
    return tuple(paid * weight // total for weight in weights)


def prizes_award(
    placings: Iterable[tuple[int, int]],
    *,
    rule: PrizeRule,
    fee_cents: int = 0,
    paid: int | None = None,
    hick_pot_cents: int = 0,
) -> PrizeList:
    """The night's prize list from its placings: ``(player, position)`` in ranking order,
    players sharing a place carrying the same position (1, 2, 2, 4, ...).

    ``paid`` is the number of players who paid the fee (all of them when ``None``)."""
    placings = list(placings)
    players = len(placings)
    taken = takings(fee_cents=fee_cents, paid=players if paid is None else paid)
    fund = taken + _non_negative("hick_pot", hick_pot_cents)
    prizes = prize_amounts(rule, fund=fund, players=players)
    amount_of = dict(zip(prize_places(rule, players), prizes, strict=True))
    groups: dict[int, list[int]] = {}
    for player, position in placings:
        groups.setdefault(position, []).append(player)
    awards: list[Award] = []
    for position, group in sorted(groups.items()):
        places = tuple(p for p in range(position, position + len(group)) if p in amount_of)
        pool = sum(amount_of[p] for p in places)
        for player in group:
            awards.append(
                Award(
                    player=player,
                    position=position,
                    places=places,
                    shared_by=len(group),
                    amount=pool // len(group),
                )
            )
    paid_out = sum(award.amount for award in awards)
    return PrizeList(
        rule=rule,
        players=players,
        takings=taken,
        hick_pot=hick_pot_cents,
        fund=fund,
        prizes=prizes,
        awards=tuple(awards),
        paid_out=paid_out,
        kept=fund - paid_out,
    )


def money(cents: int) -> str:
    """Cents as a plain amount with two decimals (``1250`` -> ``"12.50"``)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def winners(prize_list: PrizeList) -> Sequence[Award]:
    """The awards that pay something, best place first."""
    return [award for award in prize_list.awards if award.amount > 0]
