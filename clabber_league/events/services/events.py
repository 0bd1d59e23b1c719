"""Creating and changing an event (a club night or an open tournament) and a series of
nights.

An event's rules are a rules spec as a game stores it (a built-in rule set's slug, or
house-rules data); the night is drawn to tables of four (two partnerships) or, for a game
that is always three-handed, of three. Once a round is drawn, what the played rounds were
played by is fixed: the rules, the format, what a round is and the rounds already drawn
can no longer change (409, naming the field); a name, a date, the fee or the prizes can.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy

from clabber_league.clubs.models import Club
from clabber_league.core.commitments import seed_from_nonce, seed_new
from clabber_league.core.errors import ServiceError, conflict
from clabber_league.games import adapters
from clabber_league.games.services import max_deals
from clabber_league.rules import BUILTIN_RULESETS, RulesError, get_ruleset

from ..models import MAX_ROUNDS, Event, Series

NAME_MISSING = gettext_lazy("Give the event a name (at most 120 characters).")
DATE_MISSING = gettext_lazy("Give the event's date.")
RULES_UNKNOWN = gettext_lazy(
    "Unknown rules: give a rule set's slug or house rules (base and options)."
)
RULES_TABLES = gettext_lazy(
    "{ruleset} is played by {players}: a club night is drawn to tables of four (two "
    "partnerships) or of three (each for himself)."
)
ROUNDS_RANGE = gettext_lazy("An event has 1 to {cap} rounds.")
ROUND_DEALS_MISSING = gettext_lazy("Give the number of deals in a round (1 to {cap}).")
ROUND_MINUTES_MISSING = gettext_lazy("Give the minutes in a round (1 to 600).")
SIT_OUT_SCORE_RANGE = gettext_lazy("A sit-out's fixed score is 0 to 10000.")
FEE_RANGE = gettext_lazy("The entry fee is 0 to 100000 cents.")
STAKE_RANGE = gettext_lazy("The hick stake is 0 to 100000 cents.")
PRIZE_SHARES_BAD = gettext_lazy(
    "Give the prize shares as whole percentages, best place first (50, 30, 20): each "
    "above 0, adding up to 100 or less, at most {cap} of them."
)
PRIZE_SHARES_MISSING = gettext_lazy(
    "The prize rule 'shares' needs the list of shares (50, 30, 20)."
)
#: At most this many prizes in a list of shares (a prize list a page prints in full).
MAX_PRIZE_SHARES = 20
SERIES_OTHER_CLUB = gettext_lazy("This series is not one of the club's.")
PAIRS_NEED_PARTNERSHIPS = gettext_lazy(
    "Fixed pairs need a game of two partnerships (four players)."
)
CHOICE = gettext_lazy("Choose one of: {choices}.")
FIXED_AFTER_DRAW = gettext_lazy(
    "Round {round} is drawn: what the rounds are played by can no longer change."
)
ROUNDS_BELOW_DRAWN = gettext_lazy(
    "{drawn} round(s) are drawn already: the event has at least that many."
)
KEEP_APART_BAD = gettext_lazy("Keep-apart is a list of pairs of player ids of the club.")
EVENT_FINISHED = gettext_lazy("This event is finished: nothing more can be changed on it.")
SERIES_NAME_TAKEN = gettext_lazy("The club already has a series of that name.")
SERIES_BEST_OF = gettext_lazy("Best N of M needs N (1 to 100).")
SERIES_MIN_ATTENDANCE = gettext_lazy("The minimum attendance is 0 to 100 nights.")
TABLE_PLAN_FOURS = gettext_lazy("{ruleset} is a game for three: its tables are of three.")
TABLE_PLAN_THREES = gettext_lazy("{ruleset} has no three-hand form: its tables are of four.")

#: What a round is played by: fixed once a round is drawn.
PLAY_FIELDS = ("rules", "format", "movement", "round_kind", "round_deals", "round_minutes")
#: Every field an event is created or updated with.
EVENT_FIELDS = (
    "name",
    "kind",
    "date",
    "rules",
    "format",
    "movement",
    "rounds",
    "round_kind",
    "round_deals",
    "round_minutes",
    "table_plan",
    "ranking",
    "sit_out_rule",
    "sit_out_score",
    "entry_fee_cents",
    "prize_rule",
    "prize_shares",
    "hick_stake_cents",
    "series",
    "keep_apart",
)
#: The built-in three-hand form of a four-hand game (RULES.md section 2); the other
#: four-hand games (bela, the clabber variants with their own melds) have none.
THREE_HAND = {"clabber": "clabber-3", "klaberjass-4": "klaberjass-3"}


class EventError(ServiceError):
    """A refused write to an event (``core.errors.ServiceError``)."""


def new_seed() -> str:
    """A fresh nonce for the next round's committed seed, chosen by the server (128 bits,
    ``core.commitments``): only the seed's hash is shown until the round is drawn."""
    return seed_new()


def committed_seed(event: Event) -> str:
    """The seed the event's next round will be drawn from (secret until it is)."""
    return seed_from_nonce(event.seed)


def event_ruleset(rules: str | Mapping[str, Any]) -> Any:
    """The rule set of a rules spec (``RulesError`` if it is none)."""
    spec = adapters.rules_input(rules)
    return get_ruleset(spec["ruleset"], spec["options"])


def table_size(rules: str | Mapping[str, Any]) -> int:
    """How many sit at one of the event's tables: the game's players (4 or 3)."""
    return event_ruleset(rules).players


def three_hand_rules(rules: str | Mapping[str, Any]) -> str | dict[str, Any] | None:
    """The rules a table of three plays at a four-hand event: the family's three-hand
    game with the same house options when they apply to it, else the plain three-hand
    game; ``None`` when the game has no three-hand form (odd players then sit out)."""
    ruleset = event_ruleset(rules)
    if ruleset.players != 4:
        return None
    three = THREE_HAND.get(ruleset.base or ruleset.slug)
    if three is None:
        return None
    spec = adapters.rules_input(rules)
    if not spec["options"]:
        return three
    try:
        get_ruleset(three, spec["options"])
    except RulesError:
        return three
    name = rules.get("name") if isinstance(rules, Mapping) else None
    return {"name": f"{name or three} (three-hand)", "base": three, "options": spec["options"]}


def default_ranking(rules: str | Mapping[str, Any]) -> str:
    """The ranking method a night of these rules gets unless the secretary chooses one.

    A four-hand game with a three-hand form can seat tables of four and of three on one
    night, and a two-sided table hands out more points per side than a three-sided one:
    its nights rank on each table's share of the points (fair across table sizes). Every
    other game seats one size of table, where the points as scored are fair and are what
    such clubs add up."""
    try:
        return Event.Ranking.SHARE if three_hand_rules(rules) else Event.Ranking.POINTS
    except (RulesError, KeyError, TypeError, AttributeError):
        return Event.Ranking.POINTS


def draw_table_sizes(event: Event) -> tuple[int, bool]:
    """``(table_size, three_hand)`` for ``events.draw``: the game's table, as the night's
    table plan seats a count that does not fill it (``Event.TablePlan``)."""
    size = table_size(event.rules)
    if size != 4 or three_hand_rules(event.rules) is None:
        return size, False
    if event.table_plan == Event.TablePlan.THREES:
        return 3, False
    return 4, event.table_plan == Event.TablePlan.MIXED


def _table_plan_errors(values: Mapping[str, Any]) -> list[dict[str, str]]:
    plan = values.get("table_plan")
    try:
        ruleset = event_ruleset(values["rules"])
        three = three_hand_rules(values["rules"])
    except (RulesError, KeyError, TypeError, AttributeError):
        return []  # the rules' own error says it
    if plan == Event.TablePlan.FOURS and ruleset.players == 3:
        return [{"field": "table_plan", "message": TABLE_PLAN_FOURS.format(ruleset=ruleset.title)}]
    if plan == Event.TablePlan.THREES and ruleset.players == 4 and three is None:
        message = TABLE_PLAN_THREES.format(ruleset=ruleset.title)
        return [{"field": "table_plan", "message": message}]
    return []


def _choice(errors: list, name: str, value: Any, choices: Any) -> None:
    if value not in choices.values:
        errors.append({"field": name, "message": CHOICE.format(choices=", ".join(choices.values))})


def _int_in(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _rules_errors(values: Mapping[str, Any]) -> list[dict[str, str]]:
    rules = values.get("rules")
    if not rules or not isinstance(rules, (str, Mapping)):
        return [{"field": "rules", "message": RULES_UNKNOWN}]
    try:
        ruleset = event_ruleset(rules)
    except (RulesError, KeyError, TypeError, AttributeError):
        return [{"field": "rules", "message": RULES_UNKNOWN}]
    sides = len(ruleset.sides)
    if not (ruleset.players == 4 and sides == 2) and not (ruleset.players == 3 and sides == 3):
        players = f"{ruleset.players} players in {sides} sides"
        return [
            {
                "field": "rules",
                "message": RULES_TABLES.format(ruleset=ruleset.slug, players=players),
            }
        ]
    if values.get("format") == Event.Format.PAIRS and ruleset.players != 4:
        return [{"field": "format", "message": PAIRS_NEED_PARTNERSHIPS}]
    return []


def _keep_apart_errors(club: Club, pairs: Any) -> list[dict[str, str]]:
    from clabber_league.clubs.models import Player

    bad = [{"field": "keep_apart", "message": KEEP_APART_BAD}]
    if not isinstance(pairs, list) or len(pairs) > 200:
        return bad
    ids: set[int] = set()
    for pair in pairs:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(_int_in(p, 1, 2**62) for p in pair)
        ):
            return bad
        ids.update(pair)
    if ids and Player.objects.filter(club=club, pk__in=ids).count() != len(ids):
        return bad
    return []


def _prize_shares_errors(rule: Any, shares: Any) -> list[dict[str, str]]:
    """A list of shares: whole percentages above 0, summing to at most 100, at most
    ``MAX_PRIZE_SHARES``; required by the rule 'shares' (other rules ignore it)."""
    if shares in (None, []) and rule != Event.PrizeRule.SHARES:
        return []
    if (
        not isinstance(shares, list)
        or len(shares) > MAX_PRIZE_SHARES
        or not all(_int_in(share, 1, 100) for share in shares)
        or sum(shares) > 100
    ):
        message = PRIZE_SHARES_BAD.format(cap=MAX_PRIZE_SHARES)
        return [{"field": "prize_shares", "message": message}]
    if rule == Event.PrizeRule.SHARES and not shares:
        return [{"field": "prize_shares", "message": PRIZE_SHARES_MISSING}]
    return []


def _event_errors(club: Club, values: Mapping[str, Any]) -> list[dict[str, str]]:
    """Everything wrong with an event's ``values``, each on its field."""
    errors: list[dict[str, str]] = []
    name = (values.get("name") or "").strip()
    if not name or len(name) > 120:
        errors.append({"field": "name", "message": NAME_MISSING})
    if not isinstance(values.get("date"), dt.date):
        errors.append({"field": "date", "message": DATE_MISSING})
    _choice(errors, "kind", values.get("kind"), Event.Kind)
    _choice(errors, "format", values.get("format"), Event.Format)
    _choice(errors, "movement", values.get("movement"), Event.Movement)
    _choice(errors, "round_kind", values.get("round_kind"), Event.RoundKind)
    _choice(errors, "sit_out_rule", values.get("sit_out_rule"), Event.SitOutRule)
    _choice(errors, "table_plan", values.get("table_plan"), Event.TablePlan)
    _choice(errors, "ranking", values.get("ranking"), Event.Ranking)
    _choice(errors, "prize_rule", values.get("prize_rule"), Event.PrizeRule)
    errors += _prize_shares_errors(values.get("prize_rule"), values.get("prize_shares"))
    errors += _rules_errors(values)
    if not errors:
        errors += _table_plan_errors(values)
    if not _int_in(values.get("rounds"), 1, MAX_ROUNDS):
        errors.append({"field": "rounds", "message": ROUNDS_RANGE.format(cap=MAX_ROUNDS)})
    kind = values.get("round_kind")
    if kind == Event.RoundKind.DEALS and not _int_in(values.get("round_deals"), 1, max_deals()):
        message = ROUND_DEALS_MISSING.format(cap=max_deals())
        errors.append({"field": "round_deals", "message": message})
    if kind == Event.RoundKind.TIME and not _int_in(values.get("round_minutes"), 1, 600):
        errors.append({"field": "round_minutes", "message": ROUND_MINUTES_MISSING})
    if not _int_in(values.get("sit_out_score"), 0, 10000):
        errors.append({"field": "sit_out_score", "message": SIT_OUT_SCORE_RANGE})
    if not _int_in(values.get("entry_fee_cents"), 0, 100000):
        errors.append({"field": "entry_fee_cents", "message": FEE_RANGE})
    if not _int_in(values.get("hick_stake_cents"), 0, 100000):
        errors.append({"field": "hick_stake_cents", "message": STAKE_RANGE})
    series = values.get("series")
    if series is not None and getattr(series, "club_id", None) != club.pk:
        errors.append({"field": "series", "message": SERIES_OTHER_CLUB})
    errors += _keep_apart_errors(club, values.get("keep_apart") or [])
    return errors


DEFAULTS: dict[str, Any] = {
    "kind": Event.Kind.NIGHT,
    "format": Event.Format.INDIVIDUAL,
    "movement": Event.Movement.MITCHELL,
    "rounds": 4,
    "round_kind": Event.RoundKind.GAME,
    "round_deals": None,
    "round_minutes": None,
    "table_plan": Event.TablePlan.MIXED,
    "ranking": None,  # the rules' default (default_ranking)
    "sit_out_rule": Event.SitOutRule.AVERAGE,
    "sit_out_score": 0,
    "entry_fee_cents": 0,
    "prize_rule": Event.PrizeRule.NONE,
    "prize_shares": [],
    "hick_stake_cents": 0,
    "series": None,
    "keep_apart": [],
}


def _normalised(values: dict[str, Any]) -> dict[str, Any]:
    """The round's size fields only for the round kind that uses them."""
    values["name"] = (values.get("name") or "").strip()
    if values.get("round_kind") != Event.RoundKind.DEALS:
        values["round_deals"] = None
    if values.get("round_kind") != Event.RoundKind.TIME:
        values["round_minutes"] = None
    if isinstance(values.get("rules"), Mapping):
        values["rules"] = dict(values["rules"])
    if values.get("prize_rule") != Event.PrizeRule.SHARES:
        values["prize_shares"] = []
    if not values.get("ranking"):
        values["ranking"] = default_ranking(values.get("rules"))
    return values


@transaction.atomic
def event_create(*, club: Club, user: Any = None, seed: str | None = None, **values: Any) -> Event:
    """A new event of the club (planned, no round drawn), with a fresh committed seed for
    its first round's draw (its nonce). ``seed`` replays a known draw (tests and the demo):
    no page or API passes one, so that nobody who has seen the entrants chooses it."""
    unknown = set(values) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields: {sorted(unknown)}")
    values = _normalised({**DEFAULTS, **values})
    errors = _event_errors(club, values)
    if errors:
        raise EventError(errors)
    return Event.objects.create(club=club, created_by=user, seed=seed or new_seed(), **values)


@transaction.atomic
def event_update(*, event: Event, **changes: Any) -> Event:
    """Change an event. Once a round is drawn, what the rounds are played by is fixed
    (409 on the field) and the rounds already drawn stay; a finished event is closed."""
    unknown = set(changes) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields: {sorted(unknown)}")
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise EventError.one("event", EVENT_FINISHED, kind="conflict")
    before = {name: getattr(event, name) for name in EVENT_FIELDS}
    after = _normalised({**before, **changes})
    errors = _event_errors(event.club, after)
    if errors:
        raise EventError(errors)
    drawn = event.round_set.count()
    if drawn:
        conflicts = [
            conflict(name, FIXED_AFTER_DRAW.format(round=drawn))
            for name in PLAY_FIELDS
            if after[name] != before[name]
        ]
        if after["rounds"] < drawn:
            conflicts.append(conflict("rounds", ROUNDS_BELOW_DRAWN.format(drawn=drawn)))
        if conflicts:
            raise EventError(conflicts)
    for name, value in after.items():
        setattr(event, name, value)
    event.save()
    return event


# --- series ---------------------------------------------------------------------------------


def _series_errors(club: Club, values: Mapping[str, Any], pk: int | None) -> list[dict]:
    errors: list[dict[str, str]] = []
    name = (values.get("name") or "").strip()
    if not name or len(name) > 120:
        errors.append({"field": "name", "message": NAME_MISSING})
    elif Series.objects.filter(club=club, name__iexact=name).exclude(pk=pk).exists():
        errors.append(conflict("name", SERIES_NAME_TAKEN))
    _choice(errors, "method", values.get("method"), Series.Method)
    if values.get("method") == Series.Method.BEST and not _int_in(values.get("best_of"), 1, 100):
        errors.append({"field": "best_of", "message": SERIES_BEST_OF})
    if not _int_in(values.get("min_attendance"), 0, 100):
        errors.append({"field": "min_attendance", "message": SERIES_MIN_ATTENDANCE})
    return errors


SERIES_FIELDS = ("name", "method", "best_of", "min_attendance")


@transaction.atomic
def series_create(
    *,
    club: Club,
    name: str,
    method: str = Series.Method.TOTAL,
    best_of: int | None = None,
    min_attendance: int = 0,
) -> Series:
    """A season of nights, ranked by ``method`` (best ``best_of`` nights for 'best')."""
    values = {"name": name, "method": method, "best_of": best_of, "min_attendance": min_attendance}
    errors = _series_errors(club, values, None)
    if errors:
        raise EventError(errors)
    if method != Series.Method.BEST:
        values["best_of"] = None
    values["name"] = name.strip()
    return Series.objects.create(club=club, **values)


@transaction.atomic
def series_update(*, series: Series, **changes: Any) -> Series:
    unknown = set(changes) - set(SERIES_FIELDS)
    if unknown:
        raise TypeError(f"unknown series fields: {sorted(unknown)}")
    values = {**{n: getattr(series, n) for n in SERIES_FIELDS}, **changes}
    errors = _series_errors(series.club, values, series.pk)
    if errors:
        raise EventError(errors)
    if values["method"] != Series.Method.BEST:
        values["best_of"] = None
    values["name"] = values["name"].strip()
    for name, value in values.items():
        setattr(series, name, value)
    series.save()
    return series


#: The built-in rule sets a night can be played by (tables of four or three).
def night_rulesets() -> list[tuple[str, str]]:
    return [
        (slug, r.title)
        for slug, r in BUILTIN_RULESETS.items()
        if (r.players, len(r.sides)) in ((4, 2), (3, 3))
    ]
