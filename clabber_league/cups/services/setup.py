"""Creating, seeding and drawing a cup.

A cup is created from a list of entrants (teams of any of the club's divisions, or
players) or as a play-off after one or more divisions (its league stage), whose top N go
through once the stage is complete (``build``). Seeding puts the entrants in order, seed
1 first, and says why for each (``Entrant.note``) and for the whole (``Stage.notes``):

* ``standings``: the division tables (``standings.selectors.standings_table``); the places
  first (every division's winner before any runner-up), then match points, game
  difference and points difference; the league's own tiebreakers decide within a division;
* ``ratings``: the players' OpenSkill ratings (a team: the mean of its players'); the
  unrated last, by name;
* ``random``: shuffled from a seed string the server chose (``bracket.random_seeding``):
  committed when the cup is created (a play-off shows only its SHA-256 until its
  entrants are drawn), shown once they are, and reused by every seeding again, so that
  nobody who has seen the entrants can choose or re-roll the draw;
* ``list``: the order given.

Drawing stores one tie per match of the pure planner's bracket (``cups.bracket.plan``)
and lets the byes through. A bracket with a result in it is never drawn again (409).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Avg, Count, F
from django.utils.translation import gettext_lazy, ngettext

from clabber_league.clubs.models import Club, Player
from clabber_league.core import messages
from clabber_league.core.commitments import seed_from_nonce, seed_new
from clabber_league.core.errors import CONFLICT
from clabber_league.leagues.models import Division, Team
from clabber_league.rules import RulesError, get_ruleset
from clabber_league.rules.errors import gettext_noop, msg
from clabber_league.scheduling.models import Fixture, ScheduleConfig
from clabber_league.standings.models import PlayerRating

from .. import bracket as planner
from ..models import Cup, Entrant, Stage, Tie
from ..store import write_rows
from . import CupError

MAX_ENTRANTS = 1024
NAME_TAKEN = gettext_lazy("The club already has a cup of this name.")
NAME_MISSING = gettext_lazy("Give the cup a name.")
BEST_OF = gettext_lazy("A tie is played over 1, 3, 5 or 7 games.")
TWO_SIDES = gettext_lazy(
    "A knockout tie is played by two or three sides: {ruleset} is played by {sides} sides. "
    "Choose another rule set."
)
THREE_PLAYERS = gettext_lazy(
    "{ruleset} is three-handed: its cup is of players (a tie is a table of three), not teams."
)
ENTRANTS_FEW = gettext_lazy("A cup needs at least 2 entrants.")
ENTRANTS_MANY = f"A cup takes at most {MAX_ENTRANTS} entrants."
ENTRANT_TWICE = gettext_lazy("{name} is entered twice.")
TEAM_OTHER_CLUB = gettext_lazy("This team is not one of the club's.")
PLAYER_OTHER_CLUB = gettext_lazy("This player is not a member of the club.")
TEAMS_NOT_PLAYERS = gettext_lazy("A cup of teams takes teams, not players.")
PLAYERS_NOT_TEAMS = gettext_lazy("A cup of players takes players, not teams.")
TEAM_SIZE = gettext_lazy("{team} has {has} player(s); {ruleset} is played {per} a side.")
PLAYERS_NEED_SOLO = gettext_lazy(
    "A cup of players plays a rule set of one player a side; {ruleset} is played {per} a side."
)
TEAM_WITHDRAWN = gettext_lazy("{team} has withdrawn from its division.")
DIVISION_OTHER_CLUB = gettext_lazy("This division is not one of the club's.")
DIVISIONS_MISSING = gettext_lazy("Give the division(s) whose top teams go through.")
TOP_RANGE = gettext_lazy("How many go through: 2 to {cap}.")
#: Why a play-off's knockout is not built (a refusal, and the stage's message when its
#: task is refused): sentences kept with their values (``msg``) for the page's language.
TOO_FEW_QUALIFY = gettext_noop(
    "{division} has {teams} team(s): fewer than the {top} that go through."
)
TOO_FEW_OVERALL = gettext_noop(
    "The stage has {teams} team(s): fewer than the {top} that go through."
)
SEEDING_UNKNOWN = gettext_lazy("Seed by standings, ratings, random or list.")
SEEDING_STANDINGS_NEEDS_STAGE = gettext_lazy(
    "Seeding from the standings needs a league stage (divisions)."
)
STAGE_UNFINISHED = gettext_noop(
    "{division} is not finished: {why}. The knockout is seeded when it is."
)
NO_FIXTURES = gettext_noop("it has no fixtures yet")
OPEN_FIXTURES = gettext_noop("{count} fixture(s) have no result yet")
SWISS_ROUNDS_LEFT = gettext_noop("{played} of its {rounds} Swiss rounds are paired")
UNCONFIRMED = gettext_noop("{count} game(s) are not confirmed yet")
#: How a knockout was seeded (``Stage.notes`` in English, ``Stage.notes_data`` for the
#: pages) and why an entrant has its seed (``Entrant.note``/``note_data``).
SEEDED_BY_RATING_TEAMS = gettext_noop(
    "Seeded by rating (OpenSkill, mu - 3 sigma; a team's is the mean of its players'), "
    "best first; the unrated last, by name."
)
SEEDED_BY_RATING_PLAYERS = gettext_noop(
    "Seeded by rating (OpenSkill, mu - 3 sigma), best first; the unrated last, by name."
)
SEEDED_AT_RANDOM_TEAMS = gettext_noop(
    "Seeded by a random draw from seed '{seed}' (Python's random.Random(seed).shuffle of "
    "the entrants in order of their team ids): anyone can repeat it."
)
SEEDED_AT_RANDOM_PLAYERS = gettext_noop(
    "Seeded by a random draw from seed '{seed}' (Python's random.Random(seed).shuffle of "
    "the entrants in order of their player ids): anyone can repeat it."
)
SEEDED_AS_LISTED = gettext_noop("Seeded in the order the entrants were given.")
RATED = gettext_noop("rating {rating}")
UNRATED = gettext_noop("no rating yet")
HAS_RESULTS = gettext_lazy(
    "This cup's bracket has results in it: it can no longer be seeded or drawn again."
)
WAITING_STAGE = gettext_lazy(
    "This cup waits for its league stage: it is seeded when the stage is complete."
)
NOT_SEEDED = gettext_lazy("This cup has no entrants yet: seed it first.")
PLAN_REFUSED = "{message}"
SEED_TEXT = gettext_lazy("A random draw's seed is 1 to 40 letters or digits.")
#: The columns of a tie as drawn (``cup_draw``); the others (loser, night, table, when
#: decided) are empty until it is played.
TIE_COLUMNS = (
    "cup_id",
    "key",
    "bracket",
    "round",
    "order",
    "home_id",
    "away_id",
    "third_id",
    "home_from",
    "away_from",
    "third_from",
    "absent",
    "status",
    "winner_id",
    "note",
    "note_data",
)


def _rules_errors(rules: Any, kind: str) -> tuple[Any, list[dict[str, str]]]:
    try:
        ruleset = get_ruleset(rules, field_prefix="rules")
    except RulesError as exc:
        return None, [
            {"field": e.get("field") or "rules", "message": e["message"]} for e in exc.errors
        ]
    if len(ruleset.sides) not in (2, 3):
        message = TWO_SIDES.format(ruleset=ruleset.slug, sides=len(ruleset.sides))
        return ruleset, [{"field": "rules", "message": message}]
    if len(ruleset.sides) == 3 and kind != Cup.Kind.PLAYERS:
        message = THREE_PLAYERS.format(ruleset=ruleset.slug)
        return ruleset, [{"field": "entrant_kind", "message": message}]
    if kind == Cup.Kind.PLAYERS and ruleset.players_per_side != 1:
        per = _per_side(ruleset.players_per_side)
        return ruleset, [
            {
                "field": "entrant_kind",
                "message": PLAYERS_NEED_SOLO.format(ruleset=ruleset.slug, per=per),
            }
        ]
    return ruleset, []


def _per_side(count: int) -> str:
    """How many play for one side, in the reader's words (a value of PLAYERS_NEED_SOLO)."""
    return ngettext("one player", "%(count)d players", count) % {"count": count}


def _options_errors(
    *,
    club: Club,
    name: str,
    best_of: int,
    fmt: str,
    third_place: bool,
    plate: bool,
    final_reset: bool,
    exclude_pk: int | None = None,
    sides: int = 2,
) -> list[dict[str, str]]:
    errors = []
    if sides == 3:
        for field_name, chosen in (
            ("format", fmt == Cup.Format.DOUBLE),
            ("third_place", third_place),
            ("plate", plate),
            ("final_reset", final_reset),
        ):
            if chosen:
                errors.append({"field": field_name, "message": planner.THREE_SINGLE_ONLY})
        fmt, third_place, plate, final_reset = Cup.Format.SINGLE, False, False, False
    if not name.strip():
        errors.append({"field": "name", "message": NAME_MISSING})
    elif Cup.objects.filter(club=club, name__iexact=name.strip()).exclude(pk=exclude_pk).exists():
        errors.append({"field": "name", "message": NAME_TAKEN, "kind": CONFLICT})
    if best_of not in (1, 3, 5, 7):
        errors.append({"field": "best_of", "message": BEST_OF})
    double = fmt == Cup.Format.DOUBLE
    if double and third_place:
        errors.append({"field": "third_place", "message": planner.THIRD_PLACE_NOT_DOUBLE})
    if double and plate:
        errors.append({"field": "plate", "message": planner.PLATE_NOT_DOUBLE})
    if final_reset and not double:
        errors.append({"field": "final_reset", "message": planner.RESET_NEEDS_DOUBLE})
    return errors


def _entrant_errors(
    club: Club, kind: str, ruleset: Any, teams: Sequence[Team], players: Sequence[Player]
) -> list[dict[str, str]]:
    errors: list[dict[str, str]] = []
    if kind == Cup.Kind.TEAMS and players:
        errors.append({"field": "players", "message": TEAMS_NOT_PLAYERS})
    if kind == Cup.Kind.PLAYERS and teams:
        errors.append({"field": "teams", "message": PLAYERS_NOT_TEAMS})
    chosen: Sequence[Any] = teams if kind == Cup.Kind.TEAMS else players
    label = "teams" if kind == Cup.Kind.TEAMS else "players"
    if len(chosen) < 2:
        errors.append({"field": label, "message": ENTRANTS_FEW})
    if len(chosen) > MAX_ENTRANTS:
        errors.append({"field": label, "message": ENTRANTS_MANY})
    seen: set[int] = set()
    for index, thing in enumerate(chosen):
        if thing.club_id != club.pk:
            message = TEAM_OTHER_CLUB if kind == Cup.Kind.TEAMS else PLAYER_OTHER_CLUB
            errors.append({"field": f"{label}[{index}]", "message": message})
        if thing.pk in seen:
            errors.append(
                {"field": f"{label}[{index}]", "message": ENTRANT_TWICE.format(name=thing.name)}
            )
        seen.add(thing.pk)
    if kind == Cup.Kind.TEAMS and ruleset is not None:
        errors += _team_errors(teams, ruleset)
    return errors


def _team_errors(teams: Sequence[Team], ruleset: Any) -> list[dict[str, str]]:
    errors = []
    sizes = dict(
        Team.objects.filter(pk__in=[t.pk for t in teams])
        .annotate(n=Count("members"))
        .values_list("pk", "n")
    )
    for index, team in enumerate(teams):
        if team.withdrawn_on is not None:
            errors.append(
                {"field": f"teams[{index}]", "message": TEAM_WITHDRAWN.format(team=team.name)}
            )
        has = sizes.get(team.pk, 0)
        if has < ruleset.players_per_side:
            message = TEAM_SIZE.format(
                team=team.name,
                has=has,
                ruleset=ruleset.slug,
                per=_per_side(ruleset.players_per_side),
            )
            errors.append({"field": f"teams[{index}]", "message": message})
    return errors


# --- creating ------------------------------------------------------------------------------


@transaction.atomic
def cup_create(
    *,
    club: Club,
    name: str,
    rules: Any = None,
    entrant_kind: str = Cup.Kind.TEAMS,
    format: str = Cup.Format.SINGLE,
    best_of: int = 1,
    third_place: bool = False,
    plate: bool = False,
    final_reset: bool = False,
    seeding: str = Cup.Seeding.LIST,
    seed_text: str = "",
    teams: Sequence[Team] = (),
    players: Sequence[Player] = (),
    divisions: Sequence[Division] = (),
    top: int | None = None,
    per: str = Stage.Per.DIVISION,
    tie_rule: str = Stage.TieRule.LOT,
    user: Any = None,
) -> Cup:
    """Create a cup: from ``teams``/``players`` (seeded at once), or as a play-off after
    ``divisions`` whose ``top`` go through (per division or overall, ``tie_rule`` for a
    shared place at the cut). A play-off's knockout is built by a task when its league
    stage is complete: at once (on commit) when it already is. ``seed_text`` replays a
    known random draw (tests): no page or API passes one, the server chooses the seed."""
    divisions = list(divisions)
    if rules is None and divisions:
        rules = divisions[0].rules_spec()
    if rules is None:
        rules = "clabber"
    ruleset, errors = _rules_errors(rules, entrant_kind)
    sides = len(ruleset.sides) if ruleset is not None and len(ruleset.sides) == 3 else 2
    errors += _options_errors(
        club=club,
        name=name,
        best_of=best_of,
        fmt=format,
        third_place=third_place,
        plate=plate,
        final_reset=final_reset,
        sides=sides,
    )
    if seeding not in Cup.Seeding.values:
        errors.append({"field": "seeding", "message": SEEDING_UNKNOWN})
    if seed_text and not (seed_text.isalnum() and len(seed_text) <= 40):
        errors.append({"field": "seed_text", "message": SEED_TEXT})
    if divisions:
        errors += _stage_errors(club, divisions, top, entrant_kind)
    else:
        if seeding == Cup.Seeding.STANDINGS:
            errors.append({"field": "seeding", "message": SEEDING_STANDINGS_NEEDS_STAGE})
        errors += _entrant_errors(club, entrant_kind, ruleset, list(teams), list(players))
        if sides == 3 and 0 < len(players) < 3:
            errors.append({"field": "players", "message": planner.THREE_TOO_FEW})
    if errors:
        raise CupError(errors)
    cup = Cup.objects.create(
        club=club,
        name=name.strip(),
        rules=rules,
        sides=sides,
        entrant_kind=entrant_kind,
        format=format,
        best_of=best_of,
        third_place=third_place,
        plate=plate,
        final_reset=final_reset,
        seeding=seeding,
        # A play-off's seed (its lots at the cut) stays secret until its entrants are known.
        seed_text=seed_text or (planner.draw_seed() if seeding == Cup.Seeding.RANDOM else ""),
        seed_nonce=seed_new() if divisions and not seed_text else "",
        draw_algorithm=planner.ALGORITHM,
        status=Cup.Status.WAITING if divisions else Cup.Status.SEEDED,
        created_by=user,
    )
    if divisions:
        league = Stage.objects.create(
            cup=cup, number=1, kind=Stage.Kind.LEAGUE, top=top, per=per, tie_rule=tie_rule
        )
        league.divisions.set(divisions)
        Stage.objects.create(cup=cup, number=2, kind=Stage.Kind.KNOCKOUT)
        from .build import stage_build_queue_if_complete

        stage_build_queue_if_complete(stage=league)
        return cup
    Stage.objects.create(cup=cup, number=1, kind=Stage.Kind.KNOCKOUT, build=Stage.Build.DONE)
    chosen = list(teams) if entrant_kind == Cup.Kind.TEAMS else list(players)
    _seed_from(cup, [Candidate(thing=t) for t in chosen], seeding)
    return cup


def _stage_errors(
    club: Club, divisions: Sequence[Division], top: int | None, kind: str
) -> list[dict[str, str]]:
    errors = []
    if kind != Cup.Kind.TEAMS:
        errors.append({"field": "entrant_kind", "message": PLAYERS_NOT_TEAMS})
    for index, division in enumerate(divisions):
        if division.club_id != club.pk:
            errors.append({"field": f"divisions[{index}]", "message": DIVISION_OTHER_CLUB})
    if top is None or not 2 <= top <= MAX_ENTRANTS:
        errors.append({"field": "top", "message": TOP_RANGE.format(cap=MAX_ENTRANTS)})
    return errors


# --- seeding -------------------------------------------------------------------------------


@dataclass
class Candidate:
    """A team or player on its way into the cup, and why it has its place: the sentences
    of its note (``msg``), joined by "; "."""

    thing: Team | Player
    note: list[Any] = field(default_factory=list)
    sort: tuple = ()


def stored_notes(notes: Sequence[Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Sentences (``msg``) as a stage keeps them: the English text (``Stage.notes``, the
    API's) and each one's template and values (``Stage.notes_data``, the pages')."""
    return [str(n) for n in notes], [messages.part(n) for n in notes]


def _rating_of(cup: Cup, things: Sequence[Team | Player]) -> dict[int, float | None]:
    """Each entrant's rating: a player's ordinal, a team's mean over its rated players."""
    if cup.entrant_kind == Cup.Kind.PLAYERS:
        rows = PlayerRating.objects.filter(player_id__in=[p.pk for p in things])
        return {r.player_id: r.ordinal for r in rows}
    out: dict[int, float | None] = {}
    rows = (
        PlayerRating.objects.filter(player__team_memberships__team_id__in=[t.pk for t in things])
        .values("player__team_memberships__team_id")
        .annotate(value=Avg(F("mu") - 3 * F("sigma")))
    )
    for row in rows:
        out[row["player__team_memberships__team_id"]] = row["value"]
    return out


def _seed_from(cup: Cup, candidates: list[Candidate], seeding: str) -> None:
    """Order ``candidates`` by the cup's seeding and store them as its entrants (replacing
    any before), each with the reason for its seed."""
    notes: list[Any] = []
    teams = cup.entrant_kind == Cup.Kind.TEAMS
    if seeding == Cup.Seeding.RATINGS:
        ratings = _rating_of(cup, [c.thing for c in candidates])
        for c in candidates:
            value = ratings.get(c.thing.pk)
            c.sort = (value is None, -(value or 0.0), c.thing.name.casefold())
            rated = msg(RATED, rating=f"{value:.1f}") if value is not None else msg(UNRATED)
            c.note = [*c.note, rated]
        candidates.sort(key=lambda c: c.sort)
        notes.append(msg(SEEDED_BY_RATING_TEAMS if teams else SEEDED_BY_RATING_PLAYERS))
    elif seeding == Cup.Seeding.RANDOM:
        # From the entrants in order of their ids, not as listed or as last seeded: the
        # same entrants and seed give the same draw however often it is seeded again.
        by_id = sorted(candidates, key=lambda c: c.thing.pk)
        candidates = planner.random_seeding(by_id, cup.seed_text)
        template = SEEDED_AT_RANDOM_TEAMS if teams else SEEDED_AT_RANDOM_PLAYERS
        notes.append(msg(template, seed=cup.seed_text))
    elif seeding == Cup.Seeding.LIST:
        notes.append(msg(SEEDED_AS_LISTED))
    Entrant.objects.filter(cup=cup).delete()
    # Plain rows, no instances: a 1,024-entrant cup's go in one COPY on PostgreSQL
    # (``store.write_rows``).
    is_team = cup.entrant_kind == Cup.Kind.TEAMS
    write_rows(
        Entrant,
        ("cup_id", "seed", "team_id", "player_id", "name", "note", "note_data"),
        (
            (
                cup.pk,
                seed,
                c.thing.pk if is_team else None,
                None if is_team else c.thing.pk,
                c.thing.name,
                "; ".join(str(n) for n in c.note)[:200],
                [messages.part(n) for n in c.note],
            )
            for seed, c in enumerate(candidates, start=1)
        ),
    )
    knockout = cup.stages.filter(kind=Stage.Kind.KNOCKOUT).first()
    if knockout is not None:
        texts, data = stored_notes(notes)
        if seeding == Cup.Seeding.STANDINGS:  # after the build's notes (``build.qualifiers``)
            texts, data = knockout.notes + texts, (knockout.notes_data or []) + data
        knockout.notes, knockout.notes_data = texts, data
        knockout.save(update_fields=["notes", "notes_data"])


def cup_seed_of(cup: Cup) -> str:
    """The cup's random seed: shown (``seed_text``), or still committed (a play-off waiting
    for its league stage: worked out from its nonce)."""
    if cup.seed_text or not cup.seed_nonce:
        return cup.seed_text
    return seed_from_nonce(cup.seed_nonce)


def cup_has_results(cup: Cup) -> bool:
    """Whether a tie of the cup has a result or a game: then it is never drawn again."""
    return (
        cup.ties.filter(status__in=[Tie.Status.DECIDED, Tie.Status.WALKOVER]).exists()
        or cup.ties.filter(tie_games__isnull=False).exists()
    )


def _lock(cup: Cup) -> Cup:
    return Cup.objects.select_for_update().get(pk=cup.pk)


@transaction.atomic
def cup_seed(*, cup: Cup, seeding: str | None = None) -> Cup:
    """Seed the cup's entrants again (another way): only while its bracket has no result.
    A random seeding reuses the cup's committed seed (one is drawn the first time), so
    seeding again never re-rolls the draw. A play-off's standings seeding is the stage's
    build."""
    cup = _lock(cup)
    if cup.status == Cup.Status.WAITING:
        raise CupError.one("cup", WAITING_STAGE, kind=CONFLICT)
    if cup_has_results(cup):
        raise CupError.one("cup", HAS_RESULTS, kind=CONFLICT)
    seeding = seeding or cup.seeding
    if seeding not in Cup.Seeding.values:
        raise CupError.one("seeding", SEEDING_UNKNOWN)
    league = cup.stages.filter(kind=Stage.Kind.LEAGUE).first()
    if seeding == Cup.Seeding.STANDINGS and league is None:
        raise CupError.one("seeding", SEEDING_STANDINGS_NEEDS_STAGE)
    cup.seeding = seeding
    if seeding == Cup.Seeding.RANDOM:
        cup.seed_text = cup.seed_text or planner.draw_seed()
        cup.draw_algorithm = planner.ALGORITHM
    entrants = list(cup.entrants.select_related("team", "player"))
    cup.ties.all().delete()
    cup.status = Cup.Status.SEEDED
    cup.champion = None
    cup.save(update_fields=["seeding", "seed_text", "draw_algorithm", "status", "champion"])
    if seeding == Cup.Seeding.STANDINGS:
        from .build import qualifiers

        candidates, notes = qualifiers(stage=league, cup=cup)
        knockout = cup.stages.get(kind=Stage.Kind.KNOCKOUT)
        knockout.notes, knockout.notes_data = stored_notes(notes)
        knockout.save(update_fields=["notes", "notes_data"])
    else:
        candidates = [
            Candidate(thing=e.team or e.player) for e in sorted(entrants, key=_entry_order)
        ]
    _seed_from(cup, candidates, seeding)
    return cup


def _entry_order(entrant: Entrant) -> tuple:
    """A re-seed starts from the entrants in the order they were entered (by id)."""
    return (entrant.pk,)


# --- drawing -------------------------------------------------------------------------------


def cup_bracket(cup: Cup, entrants: int | None = None) -> planner.Bracket:
    """The planner's bracket of the cup, as drawn."""
    count = entrants if entrants is not None else cup.entrants.count()
    return planner.plan(
        count,
        double=cup.format == Cup.Format.DOUBLE,
        third_place=cup.third_place,
        plate=cup.plate,
        reset=cup.final_reset,
        table=cup.sides,
    )


def _source_text(source: planner.Source) -> str:
    if source.kind == "seed":
        return f"Seed {source.seed}"
    if source.kind == "bye":
        return "Bye"
    return f"{'Winner' if source.kind == 'winner' else 'Loser'} of {source.match}"


@transaction.atomic
def cup_draw(*, cup: Cup) -> Cup:
    """Draw the bracket: one tie per match of the planner's plan, the byes let through.
    Drawing again (after a re-seed, say) is refused once a tie has a result or a game."""
    cup = _lock(cup)
    if cup.status == Cup.Status.WAITING:
        raise CupError.one("cup", WAITING_STAGE, kind=CONFLICT)
    if cup_has_results(cup):
        raise CupError.one("cup", HAS_RESULTS, kind=CONFLICT)
    count = cup.entrants.count()
    if count == 0:
        raise CupError.one("cup", NOT_SEEDED, kind=CONFLICT)
    try:
        plan = cup_bracket(cup, count)
    except planner.BracketError as exc:
        raise CupError.one("cup", PLAN_REFUSED.format(message=exc)) from exc
    cup.ties.all().delete()
    # Each tie is written with its sides and state as the planner has them before any
    # result (the seeds of round 1, the byes let through, a reset not needed void): what
    # ``progress.cup_sync`` would make of them, so it is not run (nor the ties read back).
    # The rows are plain tuples, not instances, and go in one COPY on PostgreSQL
    # (``store.write_rows``).
    seeded = dict(cup.entrants.values_list("seed", "pk"))
    start = planner.advance(plan, {})

    def state(slot: planner.Slot) -> tuple[str, int | None]:
        if not slot.needed:
            return Tie.Status.VOID, None
        if slot.winner is not None:  # a bye, or an empty place of the losers' bracket
            return Tie.Status.BYE, seeded.get(slot.winner)
        return (Tie.Status.READY if slot.ready else Tie.Status.WAITING), None

    def tie(order: int, m: planner.Match) -> tuple:
        slot = start[m.key]
        status, winner = state(slot)
        return (
            cup.pk,
            m.key,
            m.bracket,
            m.round,
            order,
            seeded.get(slot.home or 0),
            seeded.get(slot.away or 0),
            seeded.get(slot.third or 0),
            _source_text(m.home),
            _source_text(m.away),
            _source_text(m.third) if m.third is not None else "",
            "",
            status,
            winner,
            "",
            {},
        )

    write_rows(Tie, TIE_COLUMNS, (tie(order, m) for order, m in enumerate(plan.matches)))
    champion = seeded.get(start.champion or 0)
    cup.status = Cup.Status.FINISHED if champion else Cup.Status.DRAWN
    cup.champion_id = champion
    cup.save(update_fields=["status", "champion"])
    return cup


def division_unfinished(division: Division) -> Any:
    """Why a division's season is not finished yet (``None``: it is): a fixture without a
    result, Swiss rounds not yet paired, a game not confirmed."""
    fixtures = Fixture.objects.filter(division=division)
    total = fixtures.count()
    if not total:
        return msg(NO_FIXTURES)
    open_count = fixtures.exclude(status__in=Fixture.DONE).count()
    if open_count:
        return msg(OPEN_FIXTURES, count=open_count)
    config = ScheduleConfig.objects.filter(division=division).first()
    if config is not None and config.format == ScheduleConfig.Format.SWISS:
        paired = fixtures.values("round_number").distinct().count()
        if paired < config.swiss_rounds:
            return msg(SWISS_ROUNDS_LEFT, played=paired, rounds=config.swiss_rounds)
    from clabber_league.games.models import Game

    unconfirmed = Game.objects.filter(division=division, status=Game.Status.FINISHED).count()
    if unconfirmed:
        return msg(UNCONFIRMED, count=unconfirmed)
    return None


__all__ = [
    "Candidate",
    "cup_bracket",
    "cup_create",
    "cup_draw",
    "cup_has_results",
    "cup_seed",
    "division_unfinished",
]
