"""Paper score-sheet rows: could some legal deal have given these numbers?

Clubs copy old paper sheets: per deal the maker, one number per side and a
mark (``made``, ``set`` - the "XX" turkey tracks - or ``renege``).
:func:`check_sheet_row` answers whether *some* legal deal of the rule set
gives that row: card points that whole tricks can hold from one pack, a last
trick, at most one bell, melds that fit in the hands, and the maker test of
RULES.md 3.1.  A row that no deal can give raises RulesError naming the
field (``score.B``, ``score``, ``maker``, ``mark``).

Inside a game (:func:`sheet_row_result`) such a row stands for a deal entered from an old
paper sheet, ``{"sheet": {"A": 0, "B": 162}, "maker": "A", "mark": "set"}``; its errors
name ``sheet.B`` instead of ``score.B``.

The melds a side can show are enumerated from the pack once per rule set
(per player: disjoint melds within a hand; a side adds its players' sums,
each four of a kind used once).  Runs shown by two players of one side are
not checked against each other, and a hanging pot (``tie_hangs``) is not
modelled: a row with a pot added may be rejected.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any, Final

from .cards import LAST_TRICK_BONUS, PACK_RANKS, SUITS, four_mask, sequence_mask
from .deal import DealResult, Outcome
from .errors import ErrorList, RulesError, field_key, gettext_noop, msg, shown
from .melds import run_kind
from .rulesets import Family, RuleSet, get_ruleset
from .validation import NUMBER_MAX, SIDE_UNKNOWN, is_whole, pack_table

MARKS: Final = ("made", "set", "renege")
SHEET_ROW_KLAVERJAS: Final = gettext_noop(
    "A klaverjas tally sheet keeps points and roem apart: enter its row as a deal "
    "(maker, trump, points_with_last, last_trick, roem), not as a {ruleset} sheet row."
)
MARK_UNKNOWN: Final = gettext_noop("The mark must be one of made, set (XX) or renege, not {value}.")
SCORE_NOT_WHOLE: Final = gettext_noop(
    "A sheet number must be a whole number from 0 to 1,000,000, not {value}."
)
SCORE_SHAPE: Final = gettext_noop("score must give one number per side ({sides}).")
SCORE_NOT_BY_SIDE: Final = gettext_noop(
    "score must be an object giving each side's number by the side's name, such as "
    "{example}; a list is not read by position."
)
MADE_NOT_AHEAD: Final = gettext_noop(
    "A made deal needs the maker's score ({mine}) above every other side's ({best})."
)
SET_MAKER_NOT_ZERO: Final = gettext_noop("A set maker scores 0 (XX), not {value}.")
RENEGE_NO_OFFENDER: Final = gettext_noop(
    "In a renege the offending side scores 0; no side scores 0 here."
)
RENEGE_ALL_ZERO: Final = gettext_noop("Every side scoring 0 is a redeal, not a renege row.")
RENEGE_SIDE_IMPOSSIBLE: Final = gettext_noop(
    "{value} cannot be a renege score in {ruleset}: it is {penalty} plus the side's own "
    "melds and bell."
)
ROW_IMPOSSIBLE: Final = gettext_noop(
    "No legal deal of {ruleset} gives this row ({row}) with the mark {mark}."
)
SIDE_IMPOSSIBLE: Final = gettext_noop(
    "No legal deal of {ruleset} gives side {side} {value} with the mark {mark}."
)


def _instances(ruleset: RuleSet) -> list[tuple[int, int, int]]:
    """(mask, value, four-rank bit) of every meld that can exist in this rule set."""
    ranks = PACK_RANKS[ruleset.pack]
    found = []
    for i, rank in enumerate(ranks):
        value = ruleset.meld_value(f"four-{rank}")
        if value:
            found.append((four_mask(rank), value, 1 << i))
    for suit in SUITS:
        for top_i, top in enumerate(ranks):
            for length in range(3, len(ranks) - top_i + 1):
                kind = run_kind(ruleset, length)
                if kind:
                    found.append((sequence_mask(suit, top, length), ruleset.meld_value(kind), 0))
    return found


@lru_cache(maxsize=64)
def _player_sums(ruleset: RuleSet) -> frozenset[tuple[int, int]]:
    """(meld points, fours used) that one player's hand can show."""
    items = _instances(ruleset)
    hand = ruleset.hand_size
    found: set[tuple[int, int]] = set()

    def walk(start: int, used: int, total: int, fours: int) -> None:
        found.add((total, fours))
        for j in range(start, len(items)):
            mask, value, four_bit = items[j]
            if not mask & used and (used | mask).bit_count() <= hand:
                walk(j + 1, used | mask, total + value, fours | four_bit)

    walk(0, 0, 0, 0)
    return frozenset(found)


@lru_cache(maxsize=64)
def side_meld_sums(ruleset: RuleSet) -> frozenset[int]:
    """Every total of melds (without the bell) that one side can show."""
    per_player = _player_sums(ruleset)
    combined: set[tuple[int, int]] = {(0, 0)}
    for _ in range(ruleset.players_per_side):
        combined = {(t + u, f | g) for t, f in combined for u, g in per_player if not f & g}
    return frozenset(t for t, _ in combined)


def _parse_score(ruleset: RuleSet, score: Any, errors: ErrorList) -> dict[str, int]:
    sides = ruleset.sides
    if not isinstance(score, Mapping):
        # RULES.md section 5: numbers are given per side by the side's name; a list read by
        # position would be a guess at which number is whose.
        example = "{" + ", ".join(f'"{s}": 0' for s in sides) + "}"
        errors.add("score", msg(SCORE_NOT_BY_SIDE, example=example))
        return {}
    if set(score) != set(sides):
        errors.add("score", msg(SCORE_SHAPE, sides=", ".join(sides)))
        return {}
    result = {}
    for side in sides:
        value = score[side]
        if not is_whole(value) or value > NUMBER_MAX:
            errors.add(f"score.{side}", msg(SCORE_NOT_WHOLE, value=shown(value)))
        else:
            result[side] = value
    return result


def _worlds(ruleset: RuleSet) -> Iterator[tuple[bool, str, str | None, int, str | None]]:
    """(no_trumps, last trick, meld winner, its meld points, bell side) to try."""
    sums = sorted(side_meld_sums(ruleset))
    for no_trumps in (False, True) if ruleset.allows_no_trumps else (False,):
        bells: list[str | None] = [None] if no_trumps else [None, *ruleset.sides]
        for last in ruleset.sides:
            for bell in bells:
                yield no_trumps, last, None, 0, bell
                for winner in ruleset.sides:
                    for m in sums:
                        if m:
                            yield no_trumps, last, winner, m, bell


def _bonus(
    ruleset: RuleSet, side: str, last: str, winner: str | None, melds: int, bell: str | None
) -> int:
    return (
        (LAST_TRICK_BONUS if side == last else 0)
        + (melds if side == winner else 0)
        + (ruleset.bell_value if side == bell else 0)
    )


def _possible(ruleset: RuleSet, no_trumps: bool, points: dict[str, int], last: str) -> bool:
    values = [points[s] for s in ruleset.sides]
    if min(values) < 0:
        return False
    return pack_table(ruleset, no_trumps).possible(values, None, ruleset.side_index[last])


def _row_possible(ruleset: RuleSet, maker: str, score: dict[str, int], mark: str) -> bool:
    others = [s for s in ruleset.sides if s != maker]
    two_sided_klaberjass = ruleset.family is Family.KLABERJASS and len(ruleset.sides) == 2
    for no_trumps, last, winner, melds, bell in _worlds(ruleset):

        def bonus(side: str) -> int:
            return _bonus(ruleset, side, last, winner, melds, bell)  # noqa: B023

        if mark == "made":
            points = {s: score[s] - bonus(s) for s in ruleset.sides}
            if _possible(ruleset, no_trumps, points, last):
                return True
            continue
        # set: the maker's own total is not on the sheet; try each possible one
        table = pack_table(ruleset, no_trumps)
        own = bonus(maker)
        their = {s: bonus(s) for s in others}
        if not two_sided_klaberjass and not all(
            table.side_can_take(score[s] - their[s]) for s in others
        ):
            continue  # the others' card points do not depend on the maker's: one is impossible
        best_other = max(score[s] for s in others)
        for p_maker in table.side_points:  # what one side can hold, lowest first
            mine = p_maker + own
            if not two_sided_klaberjass and mine > best_other:
                break
            points = {maker: p_maker}
            if two_sided_klaberjass:
                other = others[0]
                if mine == score[other]:
                    theirs = mine  # tie: the opponent scores its own total
                else:
                    theirs = score[other] - mine  # less: its own total plus the maker's
                    if theirs <= mine:
                        continue
                points[other] = theirs - their[other]
            else:
                points.update({s: score[s] - their[s] for s in others})
            if _possible(ruleset, no_trumps, points, last):
                return True
    return False


def _renege_possible(ruleset: RuleSet, score: dict[str, int], errors: ErrorList) -> None:
    offenders = [s for s, v in score.items() if v == 0]
    if not offenders:
        errors.add("score", RENEGE_NO_OFFENDER)
        return
    if len(offenders) == len(score):
        errors.add("score", RENEGE_ALL_ZERO)
        return
    sums = side_meld_sums(ruleset)
    penalties = {ruleset.renege_points(False)}
    if ruleset.allows_no_trumps:
        penalties.add(ruleset.renege_points(True))
    bell_options = []  # per side: can it score without the bell / only with it
    for side, value in score.items():
        if side in offenders:
            continue
        plain = any(value - p in sums for p in penalties)
        belled = any(value - p - ruleset.bell_value in sums for p in penalties)
        if not plain and not belled:
            errors.add(
                f"score.{side}",
                msg(
                    RENEGE_SIDE_IMPOSSIBLE,
                    value=value,
                    ruleset=ruleset.slug,
                    penalty=" or ".join(map(str, penalties)),
                ),
            )
        bell_options.append((side, plain, belled))
    if not errors and sum(1 for _, plain, _ in bell_options if not plain) > 1:
        errors.add(
            "score",
            msg(ROW_IMPOSSIBLE, ruleset=ruleset.slug, row=_row_text(score), mark="renege"),
        )


def check_sheet_row(
    ruleset: str | Mapping[str, Any] | RuleSet,
    options: Mapping[str, Any] | None,
    maker: str,
    score: Any,
    mark: str,
) -> bool:
    """True if some legal deal gives this sheet row; RulesError naming the field if none."""
    rules = get_ruleset(ruleset, options)
    if rules.is_klaverjas:
        raise RulesError(msg(SHEET_ROW_KLAVERJAS, ruleset=rules.slug), "ruleset")
    errors = ErrorList()
    if not isinstance(maker, str) or maker not in rules.side_index:
        errors.add("maker", msg(SIDE_UNKNOWN, value=shown(maker), sides=", ".join(rules.sides)))
    if not isinstance(mark, str) or mark not in MARKS:
        errors.add("mark", msg(MARK_UNKNOWN, value=shown(mark)))
    row = _parse_score(rules, score, errors)
    errors.raise_if_any()
    if mark == "renege":
        _renege_possible(rules, row, errors)
        errors.raise_if_any()
        return True
    best_other = max(v for s, v in row.items() if s != maker)
    if mark == "made" and row[maker] <= best_other:
        raise RulesError(msg(MADE_NOT_AHEAD, mine=row[maker], best=best_other), f"score.{maker}")
    if mark == "set" and row[maker] != 0:
        raise RulesError(msg(SET_MAKER_NOT_ZERO, value=row[maker]), f"score.{maker}")
    if _row_possible(rules, maker, row, mark):
        return True
    # Blame one side when its number alone is out of reach, else the whole row.
    for side, value in row.items():
        if side == maker and mark == "set":
            continue
        top = (
            rules.max_card_points()
            + LAST_TRICK_BONUS
            + max(side_meld_sums(rules))
            + rules.bell_value
        )
        if mark == "set" and rules.family is Family.KLABERJASS and len(rules.sides) == 2:
            top += (
                rules.max_card_points()
                + LAST_TRICK_BONUS
                + max(side_meld_sums(rules))
                + rules.bell_value
            )
        if value > top:
            raise RulesError(
                msg(SIDE_IMPOSSIBLE, ruleset=rules.slug, side=side, value=value, mark=mark),
                f"score.{side}",
            )
    raise RulesError(
        msg(ROW_IMPOSSIBLE, ruleset=rules.slug, row=_row_text(row), mark=mark), "score"
    )


def _row_text(row: Mapping[str, int]) -> str:
    return ", ".join(f"{side} {value}" for side, value in row.items())


SHEET_ROW_KEYS: Final = frozenset({"sheet", "maker", "mark"})
SHEET_ROW_EXTRA: Final = gettext_noop(
    "A sheet row has only sheet, maker and mark; {names} belong to a full deal."
)


def sheet_row_result(ruleset: RuleSet, row: Mapping[str, Any]) -> DealResult:
    """A paper-sheet row inside a game: ``{"sheet": {side: number}, "maker", "mark"}``.

    The row is checked with :func:`check_sheet_row` and then counts as written: its
    numbers are the deal's score and totals. A hanging pot is not modelled for such rows.
    """
    extra = sorted(set(row) - SHEET_ROW_KEYS - {"ruleset", "options"})
    if extra:
        names = ", ".join(field_key(n) for n in extra[:5]) + (", ..." if len(extra) > 5 else "")
        raise RulesError(msg(SHEET_ROW_EXTRA, names=names), field_key(extra[0]))
    try:
        check_sheet_row(ruleset, None, row.get("maker", ""), row.get("sheet"), row.get("mark", ""))
    except RulesError as exc:
        raise RulesError(
            {
                "field": "sheet" + e["field"][5:] if e["field"].startswith("score") else e["field"],
                "message": e["message"],
            }
            for e in exc.errors
        ) from None
    score = dict(_parse_score(ruleset, row["sheet"], ErrorList()))
    return DealResult(
        outcome=Outcome(row["mark"]),
        score=score,
        totals=dict(score),
        meld_winner=None,
        meld_points=dict.fromkeys(ruleset.sides, 0),
    )
