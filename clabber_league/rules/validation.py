"""Checking a deal: everything RULES.md section 5 says the service must reject.

:func:`parse_deal` reads the JSON of one deal (RULES.md section 6) against a
rule set and returns a checked :class:`~clabber_league.rules.deal.Deal`, or
raises one :class:`~clabber_league.rules.errors.RulesError` that lists every
mistake it found, each under the JSON path of the field
(``maker``, ``points.B``, ``melds.A[0].top``, ``bell``, ``renege[0]`` ...).

What is checked, in the order a scorer fills in a sheet:

* sides, suits and ranks exist; the maker is a side; trump is a suit (``none``
  only where the rule set has a no-trumps bid); the bidding round agrees with
  trump (first round: the turned-up suit; second round: another suit where
  ``second_round_other_suit`` holds);
* card points are whole, not negative, and *possible* (see
  :mod:`~clabber_league.rules.feasibility`): they add up to the pack's total
  when every card is played, to at most what the played cards can hold
  otherwise, and can be split into whole tricks from one pack; ``tricks``, if
  given, add up to the deal's tricks and agree with the points; the last
  trick went to a side that took a trick; where not every card is played, the
  points come from played cards holding every card shown in a meld or the bell
  (the exact card test, :mod:`~clabber_league.rules.shown_cards`);
* melds exist in the pack and in the rule set's table, share no card, and fit
  in the hands (per player where melds name one, per side otherwise);
* the bell: one only, not at no trumps, its King and Queen in no other side's
  meld and in one player's hand.

A deal stopped by a renege needs no points or last trick; a passed-out deal
needs nothing but its rule set.  Unknown top-level fields are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import (
    NO_TRUMPS,
    RANK_INDEX,
    RANKS,
    SUITS,
    card_bit,
    mask_cards,
)
from .deal import Deal
from .errors import (
    ErrorList,
    Message,
    RulesBug,
    RulesError,
    field_key,
    gettext_noop,
    msg,
    ngettext,
    shown,
)
from .feasibility import Table
from .melds import Meld, four, sequence
from .rulesets import RuleSet
from .shown_cards import possible_with_shown, shown_values

NUMBER_MAX: Final = 1_000_000
"""The largest card points, tricks or sheet number read: anything above is no score."""
PLAYER_ID_MAX: Final = 40
"""Characters in a meld's player id."""

DEAL_NOT_OBJECT: Final = gettext_noop("A deal must be a JSON object.")
PASSED_NOT_BOOLEAN: Final = gettext_noop("passed must be true or false, not {value}.")
SIDE_UNKNOWN: Final = gettext_noop("{value} is not a side of this game; the sides are {sides}.")
MAKER_MISSING: Final = gettext_noop(
    "A scored deal needs the maker: the side that named trump ({sides})."
)
TRUMP_MISSING: Final = gettext_noop("A scored deal needs the trump suit ({suits}).")
TRUMP_UNKNOWN: Final = gettext_noop("Unknown trump suit {value}; the suits are {suits}.")
TRUMP_NONE_NOT_ALLOWED: Final = (
    'No trumps ("none") is not a bid in {ruleset}; only a rule set with a no-trumps bid '
    "(bela-4) allows it."
)
BIDDING_NOT_OBJECT: Final = gettext_noop(
    "bidding must be an object with round (1 or 2) and turned (the turned-up suit)."
)
BIDDING_ROUND: Final = gettext_noop(
    "The bidding round must be 1 (the turned-up suit) or 2 (a named suit), not {value}."
)
BIDDING_TURNED: Final = gettext_noop("Unknown turned-up suit {value}; the suits are {suits}.")
FIRST_ROUND_TRUMP: Final = gettext_noop(
    "In the first round trump is the turned-up suit ({turned}), not {trump}."
)
SECOND_ROUND_SAME_SUIT: Final = gettext_noop(
    "In {ruleset} a second-round trump must differ from the turned-up suit ({turned})."
)
POINTS_NOT_OBJECT: Final = gettext_noop(
    "points must be an object of card points per side, such as {example}."
)
POINTS_MISSING: Final = gettext_noop(
    "Card points of side {side} are missing; a deal played to the end needs them."
)
POINTS_NOT_WHOLE: Final = gettext_noop(
    "Card points must be a whole number from 0 to 1,000,000, not {value}."
)
POINTS_SUM_ALL_PLAYED: Final = gettext_noop(
    "Card points must add up to {total} when every card is played; these add up to {sum}."
)
POINTS_SUM_AT_MOST: Final = gettext_noop(
    "Card points can add up to at most {most} in {ruleset}, where {played} of the {pack} cards "
    "are played; these add up to {sum}."
)
POINTS_SUM_AT_LEAST: Final = gettext_noop(
    "Card points must add up to at least {least} in {ruleset}: the {out} cards left out hold "
    "at most {most}; these add up to {sum}."
)
POINTS_SIDE_IMPOSSIBLE: Final = gettext_noop(
    "{card_points} cannot be taken by one side in {ruleset}: no set of whole tricks "
    "holds exactly that."
)
POINTS_BELOW_SHOWN: Final = gettext_noop(
    "The {cards} cards shown in melds and the bell are held, so played, and worth {worth} "
    "card points; the sides' card points add up to only {sum}."
)
POINTS_BESIDE_SHOWN: Final = gettext_noop(
    "These card points ({points}) cannot be taken beside the {cards} cards shown in melds and "
    "the bell: shown cards are played, and no {played} played cards holding them split into "
    "whole tricks with these points (the {out} cards left out would hold exactly {rest})."
)
TRICKS_BESIDE_SHOWN: Final = gettext_noop(
    "The card points ({points}) cannot be taken in these tricks ({tricks}) beside the {cards} "
    "cards shown in melds and the bell."
)
LAST_TRICK_BESIDE_SHOWN: Final = gettext_noop(
    "Side {side} cannot have taken the last trick: with the {cards} cards shown in melds and "
    "the bell played, its {card_points} cannot include a whole trick."
)
POINTS_NO_TRICK: Final = gettext_noop("Side {side} took no trick, so it cannot have {card_points}.")
POINTS_JOINT_IMPOSSIBLE: Final = gettext_noop(
    "These card points ({points}) cannot be taken together from one pack in {ruleset}."
)
TRICKS_NOT_OBJECT: Final = gettext_noop(
    "tricks must be an object of tricks won per side, such as {example}."
)
TRICKS_MISSING: Final = gettext_noop(
    "Tricks of side {side} are missing; give every side's tricks or none."
)
TRICKS_NOT_WHOLE: Final = gettext_noop(
    "Tricks must be a whole number from 0 to 1,000,000, not {value}."
)
TRICKS_SUM: Final = gettext_noop(
    "Tricks must add up to {tricks}, the tricks of a deal in {ruleset}; these add up to {sum}."
)
TRICKS_CANNOT_HOLD: Final = gettext_noop(
    "{tricks} trick(s) of side {side} cannot hold exactly {card_points} in {ruleset}."
)
TRICKS_JOINT_IMPOSSIBLE: Final = gettext_noop(
    "The card points ({points}) cannot be taken in these tricks ({tricks}) from one pack."
)
LAST_TRICK_MISSING: Final = gettext_noop(
    "A deal played to the end needs the side that took the last trick ({sides})."
)
LAST_TRICK_NO_TRICKS: Final = gettext_noop(
    "Side {side} took no trick, so it cannot have taken the last trick."
)
LAST_TRICK_IMPOSSIBLE: Final = gettext_noop(
    "Side {side} cannot have taken the last trick: its {card_points} cannot include "
    "a whole trick beside the other sides' points."
)

MELDS_NOT_OBJECT: Final = gettext_noop("melds must be an object of meld lists per side.")
MELD_LIST: Final = gettext_noop("The melds of side {side} must be a list.")
MELD_LIST_TOO_LONG: Final = gettext_noop(
    "Side {side} lists {count} melds; a side can show at most {most} in {ruleset}."
)
MELD_NOT_OBJECT: Final = (
    'A meld is an object such as {"kind": "sequence", "suit": "hearts", "top": "A", '
    '"length": 3} or {"kind": "four", "rank": "J"}.'
)
MELD_KIND_INVALID: Final = gettext_noop(
    'Unknown meld {value}: a meld is a "sequence" or a "four" (of a kind).'
)
MELD_KIND_UNKNOWN: Final = gettext_noop(
    "The meld kind {kind} is unknown to this rule set ({ruleset}): it is no meld here."
)
MELD_SUIT_UNKNOWN: Final = gettext_noop("Unknown suit {value}; the suits are {suits}.")
MELD_RANK_UNKNOWN: Final = gettext_noop("Unknown rank {value}; the ranks are {ranks}.")
MELD_RANK_NOT_IN_PACK: Final = gettext_noop("There is no {rank} in the {pack}-card pack.")
MELD_LENGTH_INVALID: Final = gettext_noop(
    "A sequence has 3 to {most} cards in the {pack}-card pack, not {value}."
)
SEQUENCE_NOT_IN_PACK: Final = gettext_noop(
    "A sequence of {length} topped by {top} needs the {low}, which is not in the {pack}-card pack."
)
MELD_SHARES_CARD: Final = gettext_noop(
    "This meld shares the {cards} with {other}; no card can be in two melds."
)
MELDS_TOO_MANY_CARDS_SIDE: Final = gettext_noop(
    "The melds of side {side} need {count} different cards, more than its {players} player(s) "
    "hold ({capacity})."
)
MELDS_TOO_MANY_CARDS_PLAYER: Final = gettext_noop(
    "The melds of player {player} need {count} different cards, more than a hand of {hand}."
)
MELDS_DO_NOT_FIT: Final = gettext_noop(
    "The melds of side {side} cannot be shared among its {players} hand(s) of {hand} cards: "
    "each meld lies in one player's hand."
)
MELD_PLAYER_INVALID: Final = gettext_noop(
    "A meld's player must be a seat or player id (text of at most 40 characters or a "
    "whole number), not {value}."
)
MELD_TOO_MANY_PLAYERS: Final = gettext_noop(
    "Side {side} has {players} player(s), but its melds name {count}: {names}."
)
MELD_PLAYER_TWO_SIDES: Final = gettext_noop("Player {player} cannot meld for two sides ({sides}).")
BELL_TWO: Final = gettext_noop(
    "There is only one bell (the King and Queen of trumps): it cannot go to {sides}."
)
BELL_NO_TRUMPS: Final = gettext_noop("There is no bell at no trumps.")
BELL_NOT_SIDE: Final = gettext_noop("bell is the side that held it ({sides}) or null, not {value}.")
BELL_CARD_IN_OTHER_MELD: Final = gettext_noop(
    "The {card} is in a meld of side {other} ({path}), so side {side} cannot hold the bell."
)
BELL_SPLIT: Final = gettext_noop(
    "The bell is the King and Queen of trumps in one hand, but the melds of side {side} put "
    "them with two players ({first}, {second})."
)
RENEGE_NOT_LIST: Final = gettext_noop(
    "renege must be a list of the sides that reneged, not {value}."
)
RENEGE_DUPLICATE: Final = gettext_noop("Side {side} is listed twice.")
#: Parts of a deal that are left out when there are none, never null.
NOT_NULL: Final = {
    "points": gettext_noop("points cannot be null: leave it out when no card points were counted."),
    "tricks": gettext_noop("tricks cannot be null: leave it out when tricks were not counted."),
    "melds": gettext_noop("melds cannot be null: leave it out when nobody showed a meld."),
    "renege": gettext_noop("renege cannot be null: leave it out when nobody reneged."),
}

_SUITS_TEXT: Final = ", ".join(SUITS)
_SEQUENCE_KINDS: Final = frozenset({"sequence", "run", "seq"})
_FOUR_KINDS: Final = frozenset({"four", "fours", "four-of-a-kind"})


def card_points(points: int) -> Message:
    """A number of card points as a message says it: "1 card point", "20 card points"."""
    return ngettext("{points} card point", "{points} card points", points, points=points)


def is_whole(value: Any) -> bool:
    """A whole number of at least 0 (``True``/``False`` are not numbers here, nor ``2.0``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def is_side(value: Any, ruleset: RuleSet) -> bool:
    """A side of the rule set, given as text (a list or an object is never one)."""
    return isinstance(value, str) and value in ruleset.side_index


def _sides_text(ruleset: RuleSet) -> str:
    return ", ".join(ruleset.sides)


def pack_table(ruleset: RuleSet, no_trumps: bool) -> Table:
    """The feasibility table of a rule set's pack (cached per shape)."""
    return ruleset.feasibility(no_trumps)


def parse_deal(data: Any, ruleset: RuleSet) -> Deal:
    """Check one deal's JSON against ``ruleset``; a Deal, or RulesError with every mistake."""
    if ruleset.is_klaverjas:
        from .klaverjas import parse_klaverjas_deal

        return parse_klaverjas_deal(data, ruleset)
    if not isinstance(data, Mapping):
        raise RulesError(DEAL_NOT_OBJECT)
    errors = ErrorList()
    for name in NOT_NULL:
        if name in data and data[name] is None:
            errors.add(name, NOT_NULL[name])
    errors.raise_if_any()
    passed = data.get("passed", False)
    if passed is None:
        passed = False
    if not isinstance(passed, bool):
        raise RulesError(msg(PASSED_NOT_BOOLEAN, value=shown(passed)), "passed")
    if passed:
        return Deal(passed=True)

    sides = ruleset.side_index
    renege = _renege(data.get("renege"), ruleset, errors)
    redeal = bool(renege) and len(set(renege)) == len(sides)
    stopped = bool(renege)

    maker = data.get("maker")
    if maker is None:
        if not redeal:
            errors.add("maker", msg(MAKER_MISSING, sides=_sides_text(ruleset)))
    elif not is_side(maker, ruleset):
        errors.add("maker", msg(SIDE_UNKNOWN, value=shown(maker), sides=_sides_text(ruleset)))
        maker = None

    trump = _trump(data, ruleset, errors, required=not redeal)
    no_trumps = trump == NO_TRUMPS

    melds, bell = _melds_and_bell(data, ruleset, trump, errors)

    points = tricks = None
    last = data.get("last_trick")
    if last is not None and not is_side(last, ruleset):
        errors.add("last_trick", msg(SIDE_UNKNOWN, value=shown(last), sides=_sides_text(ruleset)))
        last = None
    raw_points = data.get("points")
    raw_tricks = data.get("tricks")
    if stopped:
        # Play stopped: whatever was counted is only checked for form.
        if raw_points is not None:
            points = _per_side(
                raw_points, "points", ruleset, errors, POINTS_NOT_OBJECT, POINTS_NOT_WHOLE, None
            )
        if raw_tricks is not None:
            tricks = _per_side(
                raw_tricks, "tricks", ruleset, errors, TRICKS_NOT_OBJECT, TRICKS_NOT_WHOLE, None
            )
    else:
        if "last_trick" not in data or data.get("last_trick") is None:
            errors.add("last_trick", msg(LAST_TRICK_MISSING, sides=_sides_text(ruleset)))
        points = _per_side(
            raw_points,
            "points",
            ruleset,
            errors,
            POINTS_NOT_OBJECT,
            POINTS_NOT_WHOLE,
            POINTS_MISSING,
        )
        if raw_tricks is not None:
            tricks = _per_side(
                raw_tricks,
                "tricks",
                ruleset,
                errors,
                TRICKS_NOT_OBJECT,
                TRICKS_NOT_WHOLE,
                TRICKS_MISSING,
            )
        if points is not None and trump is not None and not errors.has("points"):
            _check_points(ruleset, no_trumps, points, tricks, last, errors)
            if not ruleset.all_cards_played and not any(
                errors.has(f) for f in ("points", "tricks", "last_trick")
            ):
                _check_shown_cards(ruleset, trump, melds, bell, points, tricks, last, errors)

    errors.raise_if_any()
    return Deal(
        passed=False,
        maker=maker,
        trump=trump,
        points=points,
        last_trick=last,
        tricks=tricks,
        melds=melds,
        bell=bell,
        renege=renege,
    )


# ----------------------------------------------------------------------------
def _renege(raw: Any, ruleset: RuleSet, errors: ErrorList) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple):
        errors.add("renege", msg(RENEGE_NOT_LIST, value=shown(raw)))
        return ()
    found: list[str] = []
    for i, side in enumerate(raw):
        if not is_side(side, ruleset):
            errors.add(
                f"renege[{i}]", msg(SIDE_UNKNOWN, value=shown(side), sides=_sides_text(ruleset))
            )
        elif side in found:
            errors.add(f"renege[{i}]", msg(RENEGE_DUPLICATE, side=side))
        else:
            found.append(side)
    return tuple(found)


def _trump(
    data: Mapping[str, Any], ruleset: RuleSet, errors: ErrorList, *, required: bool
) -> str | None:
    trump = data.get("trump")
    if trump is None:
        if required:
            errors.add("trump", msg(TRUMP_MISSING, suits=_SUITS_TEXT))
        return None
    if trump == NO_TRUMPS:
        if not ruleset.allows_no_trumps:
            errors.add("trump", msg(TRUMP_NONE_NOT_ALLOWED, ruleset=ruleset.slug))
            return None
    elif not isinstance(trump, str) or trump not in SUITS:
        errors.add("trump", msg(TRUMP_UNKNOWN, value=shown(trump), suits=_SUITS_TEXT))
        return None
    bidding = data.get("bidding")
    if bidding is None:
        return trump
    if not isinstance(bidding, Mapping):
        errors.add("bidding", BIDDING_NOT_OBJECT)
        return trump
    rnd = bidding.get("round")
    turned = bidding.get("turned")
    ok = True
    if type(rnd) is not int or rnd not in (1, 2):  # not 1.0, not true
        errors.add("bidding.round", msg(BIDDING_ROUND, value=shown(rnd)))
        ok = False
    if not isinstance(turned, str) or turned not in SUITS:
        errors.add("bidding.turned", msg(BIDDING_TURNED, value=shown(turned), suits=_SUITS_TEXT))
        ok = False
    if ok:
        if rnd == 1 and trump != turned:
            errors.add("trump", msg(FIRST_ROUND_TRUMP, turned=turned, trump=trump))
        elif rnd == 2 and trump == turned and ruleset.second_round_other_suit:
            errors.add("trump", msg(SECOND_ROUND_SAME_SUIT, ruleset=ruleset.slug, turned=turned))
    return trump


def _per_side(
    raw: Any,
    name: str,
    ruleset: RuleSet,
    errors: ErrorList,
    not_object: str,
    not_whole: str,
    missing: str | None,
) -> dict[str, int] | None:
    sides = ruleset.sides
    if not isinstance(raw, Mapping):
        if raw is None and missing is None:
            return None
        example = "{" + ", ".join(f'"{s}": 0' for s in sides) + "}"
        errors.add(name, msg(not_object, example=example))
        return None
    result: dict[str, int] = {}
    ok = True
    for side, value in raw.items():
        if not is_side(side, ruleset):
            errors.add(
                f"{name}.{field_key(side)}",
                msg(SIDE_UNKNOWN, value=shown(side), sides=_sides_text(ruleset)),
            )
            ok = False
        elif not is_whole(value) or value > NUMBER_MAX:
            errors.add(f"{name}.{side}", msg(not_whole, value=shown(value)))
            ok = False
        else:
            result[side] = value
    for side in sides:
        if side not in raw:
            ok = False
            if missing is not None:
                errors.add(f"{name}.{side}", msg(missing, side=side))
    if not ok:
        return None
    return {s: result[s] for s in sides}


def _check_points(
    ruleset: RuleSet,
    no_trumps: bool,
    points: dict[str, int],
    tricks: dict[str, int] | None,
    last: str | None,
    errors: ErrorList,
) -> None:
    table = pack_table(ruleset, no_trumps)
    sides = ruleset.sides
    values = [points[s] for s in sides]
    vector = None if tricks is None else [tricks[s] for s in sides]
    last_index = None if last is None else ruleset.side_index[last]
    if vector is not None and sum(vector) != ruleset.tricks:
        errors.add(
            "tricks",
            msg(TRICKS_SUM, tricks=ruleset.tricks, ruleset=ruleset.slug, sum=sum(vector)),
        )
        vector = None
    if table.possible(values, vector, last_index):
        return  # the usual case: one table lookup
    total = sum(values)
    if ruleset.all_cards_played and total != table.total:
        errors.add("points", msg(POINTS_SUM_ALL_PLAYED, total=table.total, sum=total))
        return
    if total > table.max_played:
        errors.add(
            "points",
            msg(
                POINTS_SUM_AT_MOST,
                most=table.max_played,
                ruleset=ruleset.slug,
                played=ruleset.cards_played,
                pack=ruleset.pack,
                sum=total,
            ),
        )
        return
    if total < table.min_played:
        errors.add(
            "points",
            msg(
                POINTS_SUM_AT_LEAST,
                least=table.min_played,
                ruleset=ruleset.slug,
                out=ruleset.pack - ruleset.cards_played,
                most=table.total - table.min_played,
                sum=total,
            ),
        )
        return
    blamed = False
    for side, p in zip(sides, values, strict=True):
        t = None if vector is None else vector[ruleset.side_index[side]]
        if not table.side_can_take(p):
            errors.add(
                f"points.{side}",
                msg(POINTS_SIDE_IMPOSSIBLE, card_points=card_points(p), ruleset=ruleset.slug),
            )
            blamed = True
        elif t == 0 and p:
            errors.add(
                f"points.{side}", msg(POINTS_NO_TRICK, side=side, card_points=card_points(p))
            )
            blamed = True
        elif t is not None and not table.side_can_take(p, t):
            errors.add(
                f"tricks.{side}",
                msg(
                    TRICKS_CANNOT_HOLD,
                    tricks=t,
                    side=side,
                    card_points=card_points(p),
                    ruleset=ruleset.slug,
                ),
            )
            blamed = True
    if last_index is not None and vector is not None and vector[last_index] == 0:
        errors.add("last_trick", msg(LAST_TRICK_NO_TRICKS, side=last))
        blamed = True
    if blamed:
        return
    shown = ", ".join(f"{s} {p}" for s, p in zip(sides, values, strict=True))
    if not table.possible(values, None, None):
        errors.add("points", msg(POINTS_JOINT_IMPOSSIBLE, points=shown, ruleset=ruleset.slug))
    elif vector is not None and not table.possible(values, vector, None):
        errors.add(
            "tricks",
            msg(
                TRICKS_JOINT_IMPOSSIBLE,
                points=shown,
                tricks=", ".join(f"{s} {t}" for s, t in zip(sides, vector, strict=True)),
            ),
        )
    elif last is not None:
        errors.add(
            "last_trick",
            msg(LAST_TRICK_IMPOSSIBLE, side=last, card_points=card_points(points[last])),
        )
    else:
        raise RulesBug(f"points {values} rejected without a reason")


def _check_shown_cards(
    ruleset: RuleSet,
    trump: str,
    melds: Mapping[str, tuple[Meld, ...]],
    bell: str | None,
    points: Mapping[str, int],
    tricks: Mapping[str, int] | None,
    last: str | None,
    errors: ErrorList,
) -> None:
    """Every card shown in a meld or the bell is held, hence played, hence in the points.

    Where every card is played this always holds.  Where some are left out (RULES.md
    section 5) the sides' points together must first be at least what the shown cards
    are worth (in ``klaberjass`` 10 and 8 points cannot go with two Ace-high runs); then
    the exact test (:mod:`~clabber_league.rules.shown_cards`): some set of played cards
    holding every shown card splits into the sides' whole tricks with exactly their
    points, the tricks given and a trick for the side that took the last one.
    """
    mask = 0
    for side_melds in melds.values():
        for meld in side_melds:
            mask |= meld.mask
    if bell is not None and trump != NO_TRUMPS:
        mask |= card_bit(trump, "K") | card_bit(trump, "Q")
    if not mask:
        return
    no_trumps = trump == NO_TRUMPS
    values = shown_values(mask, trump, ruleset.trump_point_table, ruleset.plain_point_table)
    worth = sum(values)
    total = sum(points.values())
    if total < worth:
        errors.add("points", msg(POINTS_BELOW_SHOWN, worth=worth, cards=len(values), sum=total))
        return
    sides = ruleset.sides
    pack = ruleset.pack_card_values(no_trumps)
    vector = [points[s] for s in sides]
    trick_vector = None
    if tricks is not None and sum(tricks.values()) == ruleset.tricks:
        trick_vector = [tricks[s] for s in sides]
    last_index = None if last is None else ruleset.side_index[last]

    def possible(with_tricks: bool, with_last: bool) -> bool:
        return possible_with_shown(
            pack,
            ruleset.trick_size,
            ruleset.tricks,
            values,
            vector,
            trick_vector if with_tricks else None,
            last_index if with_last else None,
        )

    if possible(True, True):
        return
    shown_points = ", ".join(f"{s} {p}" for s, p in zip(sides, vector, strict=True))
    if not possible(False, False):
        errors.add(
            "points",
            msg(
                POINTS_BESIDE_SHOWN,
                points=shown_points,
                cards=len(values),
                played=ruleset.cards_played,
                out=ruleset.pack - ruleset.cards_played,
                rest=sum(pack) - total,
            ),
        )
    elif trick_vector is not None and not possible(True, False):
        errors.add(
            "tricks",
            msg(
                TRICKS_BESIDE_SHOWN,
                points=shown_points,
                tricks=", ".join(f"{s} {t}" for s, t in zip(sides, trick_vector, strict=True)),
                cards=len(values),
            ),
        )
    else:
        errors.add(
            "last_trick",
            msg(
                LAST_TRICK_BESIDE_SHOWN,
                side=last,
                cards=len(values),
                card_points=card_points(points[last or sides[0]]),
            ),
        )


def _player(raw: Any, path: str, errors: ErrorList) -> str | None:
    if raw is None:
        return None
    if (
        isinstance(raw, bool)
        or not isinstance(raw, str | int)
        or (isinstance(raw, str) and len(raw) > PLAYER_ID_MAX)
        or (isinstance(raw, int) and not 0 <= raw <= NUMBER_MAX)
    ):
        errors.add(path, msg(MELD_PLAYER_INVALID, value=shown(raw)))
        return None
    return str(raw)


def _one_meld(
    raw: Any, path: str, ruleset: RuleSet, trump: str | None, errors: ErrorList
) -> Meld | None:
    if not isinstance(raw, Mapping):
        errors.add(path, MELD_NOT_OBJECT)
        return None
    kind = raw.get("kind")
    if not isinstance(kind, str):
        errors.add(f"{path}.kind", msg(MELD_KIND_INVALID, value=shown(kind)))
        return None
    player = _player(raw.get("player"), f"{path}.player", errors)
    pack_ranks = ruleset.pack_ranks
    if kind.startswith("four-") and kind[5:] in RANK_INDEX:
        rank: Any = raw.get("rank", kind[5:])
        kind = "four"
    else:
        rank = raw.get("rank")
    length: Any = raw.get("length")
    if kind.startswith("run-") and kind[4:].isdecimal() and len(kind) <= 6:
        length = raw.get("length", int(kind[4:]))
        kind = "sequence"
    if kind in _FOUR_KINDS:
        if not isinstance(rank, str) or rank not in RANK_INDEX:
            errors.add(
                f"{path}.rank", msg(MELD_RANK_UNKNOWN, value=shown(rank), ranks=" ".join(RANKS))
            )
            return None
        if rank not in pack_ranks:
            errors.add(f"{path}.rank", msg(MELD_RANK_NOT_IN_PACK, rank=rank, pack=ruleset.pack))
            return None
        meld = four(ruleset, rank, player=player)
        if meld is None:
            errors.add(
                f"{path}.kind", msg(MELD_KIND_UNKNOWN, kind=f"four-{rank}", ruleset=ruleset.slug)
            )
        return meld
    if kind not in _SEQUENCE_KINDS:
        errors.add(f"{path}.kind", msg(MELD_KIND_INVALID, value=shown(kind)))
        return None
    suit = raw.get("suit")
    top = raw.get("top")
    ok = True
    if not isinstance(suit, str) or suit not in SUITS:
        errors.add(f"{path}.suit", msg(MELD_SUIT_UNKNOWN, value=shown(suit), suits=_SUITS_TEXT))
        ok = False
    most = len(pack_ranks)
    if not is_whole(length) or not 3 <= length <= most:
        errors.add(
            f"{path}.length",
            msg(MELD_LENGTH_INVALID, most=most, pack=ruleset.pack, value=shown(length)),
        )
        ok = False
    if not isinstance(top, str) or top not in RANK_INDEX:
        errors.add(f"{path}.top", msg(MELD_RANK_UNKNOWN, value=shown(top), ranks=" ".join(RANKS)))
        return None
    if top not in pack_ranks:
        errors.add(f"{path}.top", msg(MELD_RANK_NOT_IN_PACK, rank=top, pack=ruleset.pack))
        return None
    if not ok:
        return None
    low = RANK_INDEX[top] + length - 1
    if low >= most:
        errors.add(
            f"{path}.top",
            msg(
                SEQUENCE_NOT_IN_PACK,
                length=length,
                top=top,
                low=RANKS[low] if low < len(RANKS) else "card below the 7",
                pack=ruleset.pack,
            ),
        )
        return None
    meld = sequence(ruleset, suit, top, length, trump=trump, player=player)
    if meld is None:
        errors.add(
            f"{path}.kind",
            msg(MELD_KIND_UNKNOWN, kind=f"run-{min(length, 6)}", ruleset=ruleset.slug),
        )
    return meld


def _melds_and_bell(
    data: Mapping[str, Any], ruleset: RuleSet, trump: str | None, errors: ErrorList
) -> tuple[dict[str, tuple[Meld, ...]], str | None]:
    raw = data.get("melds")
    sides = ruleset.side_index
    melds: dict[str, tuple[Meld, ...]] = {s: () for s in ruleset.sides}
    if raw is not None and not isinstance(raw, Mapping):
        errors.add("melds", MELDS_NOT_OBJECT)
        raw = None
    seen: list[tuple[int, str, str]] = []  # mask, path, side
    owner: dict[str, str] = {}  # player -> side
    most = ruleset.hand_size * ruleset.players_per_side // 3
    for side, items in (raw or {}).items():
        if side not in sides:
            errors.add(
                f"melds.{field_key(side)}",
                msg(SIDE_UNKNOWN, value=shown(side), sides=_sides_text(ruleset)),
            )
            continue
        if items is None:
            continue
        if not isinstance(items, list | tuple):
            errors.add(f"melds.{side}", msg(MELD_LIST, side=side))
            continue
        if len(items) > most:
            errors.add(
                f"melds.{side}",
                msg(
                    MELD_LIST_TOO_LONG, side=side, count=len(items), most=most, ruleset=ruleset.slug
                ),
            )
            continue
        found: list[Meld] = []
        for i, item in enumerate(items):
            path = f"melds.{side}[{i}]"
            meld = _one_meld(item, path, ruleset, trump, errors)
            if meld is None:
                continue
            for mask, other_path, _ in seen:
                if mask & meld.mask:
                    errors.add(
                        path,
                        msg(
                            MELD_SHARES_CARD,
                            cards=", ".join(mask_cards(mask & meld.mask)),
                            other=other_path,
                        ),
                    )
                    break
            seen.append((meld.mask, path, side))
            if meld.player is not None:
                first = owner.setdefault(meld.player, side)
                if first != side:
                    errors.add(
                        f"{path}.player",
                        msg(MELD_PLAYER_TWO_SIDES, player=meld.player, sides=f"{first}, {side}"),
                    )
            found.append(meld)
        melds[side] = tuple(found)
    bell = _bell(data.get("bell"), ruleset, trump, seen, errors)
    _check_hands(ruleset, melds, bell, trump, errors)
    return melds, bell


def _bell(
    raw: Any,
    ruleset: RuleSet,
    trump: str | None,
    seen: list[tuple[int, str, str]],
    errors: ErrorList,
) -> str | None:
    if raw is None:
        return None
    if isinstance(raw, list | tuple) and len(raw) > 1:
        errors.add("bell", msg(BELL_TWO, sides=", ".join(shown(s) for s in raw[:4])))
        return None
    if not isinstance(raw, str):
        errors.add("bell", msg(BELL_NOT_SIDE, sides=_sides_text(ruleset), value=shown(raw)))
        return None
    if raw not in ruleset.side_index:
        errors.add("bell", msg(SIDE_UNKNOWN, value=shown(raw), sides=_sides_text(ruleset)))
        return None
    if trump == NO_TRUMPS:
        errors.add("bell", BELL_NO_TRUMPS)
        return None
    if trump is None:
        return raw
    for rank in ("K", "Q"):
        bit = card_bit(trump, rank)
        for mask, path, side in seen:
            if side != raw and mask & bit:
                errors.add(
                    "bell",
                    msg(
                        BELL_CARD_IN_OTHER_MELD,
                        card=f"{rank} of {trump}",
                        other=side,
                        path=path,
                        side=raw,
                    ),
                )
                return None
    return raw


def _fits(sizes: list[int], room: list[int]) -> bool:
    """Whether items of ``sizes`` can be put in bins with ``room`` (each item in one bin)."""
    if sum(sizes) <= max(room, default=0):
        return True
    sizes = sorted(sizes, reverse=True)

    def place(i: int, room: tuple[int, ...]) -> bool:
        if i == len(sizes):
            return True
        tried = set()
        for b, free in enumerate(room):
            if free >= sizes[i] and free not in tried:
                tried.add(free)
                if place(i + 1, (*room[:b], free - sizes[i], *room[b + 1 :])):
                    return True
        return False

    return place(0, tuple(room))


def _check_hands(
    ruleset: RuleSet,
    melds: Mapping[str, tuple[Meld, ...]],
    bell: str | None,
    trump: str | None,
    errors: ErrorList,
) -> None:
    """Each meld lies in one player's hand; a side's melds must fit its players' hands."""
    hand = ruleset.hand_size
    per_side = ruleset.players_per_side
    bell_mask = 0
    if bell is not None and trump not in (None, NO_TRUMPS):
        bell_mask = card_bit(trump, "K") | card_bit(trump, "Q")
    for side, side_melds in melds.items():
        extra = bell_mask if side == bell else 0
        if not side_melds and not extra:
            continue
        # The items that must each lie in one hand: the melds, except that the bell's
        # King and Queen and every meld holding one of them form one item.
        items: list[tuple[int, str | None]] = []
        bell_item, bell_players = extra, []
        for m in side_melds:
            if m.mask & extra:
                bell_item |= m.mask
                if m.player is not None and m.player not in bell_players:
                    bell_players.append(m.player)
            else:
                items.append((m.mask, m.player))
        if len(bell_players) > 1:
            errors.add(
                "bell", msg(BELL_SPLIT, side=side, first=bell_players[0], second=bell_players[1])
            )
            continue
        if bell_item:
            items.append((bell_item, bell_players[0] if bell_players else None))
        count = sum(mask.bit_count() for mask, _ in items)
        if count > hand * per_side:
            errors.add(
                f"melds.{side}",
                msg(
                    MELDS_TOO_MANY_CARDS_SIDE,
                    side=side,
                    count=count,
                    players=per_side,
                    capacity=hand * per_side,
                ),
            )
            continue
        load: dict[str, int] = {}
        free: list[int] = []
        for mask, player in items:
            if player is None:
                free.append(mask.bit_count())
            else:
                load[player] = load.get(player, 0) + mask.bit_count()
        if len(load) > per_side:
            errors.add(
                f"melds.{side}",
                msg(
                    MELD_TOO_MANY_PLAYERS,
                    side=side,
                    players=per_side,
                    count=len(load),
                    names=", ".join(load),
                ),
            )
            continue
        over = [p for p, n in load.items() if n > hand]
        for player in over:
            errors.add(
                f"melds.{side}",
                msg(MELDS_TOO_MANY_CARDS_PLAYER, player=player, count=load[player], hand=hand),
            )
        if over or not free:
            continue
        room = [hand - n for n in load.values()] + [hand] * (per_side - len(load))
        if not _fits(free, room):
            errors.add(
                f"melds.{side}", msg(MELDS_DO_NOT_FIT, side=side, players=per_side, hand=hand)
            )
