"""Playing a cup: a tie's games, walkovers, and the bracket moving on.

Who is where is always the pure planner's answer (``bracket.advance``) from the results
stored on the ties, so byes, the losers' bracket, the third-place match, the plate and a
grand-final reset follow one set of rules (``cup_sync``).

A tie's result comes from its **confirmed** games only: a finished game that is not
confirmed yet decides nothing. The first side to win ``best_of // 2 + 1`` games wins the
tie. A tied game (a rule set that lets a game end level: ``tie_at_target: tie``) counts
for neither side: the tie stays open and the note says a deciding game is needed. A
walkover decides a tie for the side that turned up.

A **table of three** (a three-handed rule set, ``Cup.sides`` 3) is one game of its three
players, sides A, B, C the home, away and third entrants; its winner goes on (there is no
loser to name). A table a player short (the planner's one short table, or a table where one
did not turn up: ``tie_walkover`` marks them absent) plays the rule set's two-handed game
heads-up (:data:`HEADS_UP`); a table left with one player is a walkover for that player.

``cups_game_changed`` is the handler of ``games.hooks.game_changed`` (registered in
``CupsConfig.ready``): it moves a tie on when one of its games changes status, and queues
the build of a play-off's knockout when a league game's confirmation completes its stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from clabber_league.clubs.models import Player
from clabber_league.core import messages
from clabber_league.core.errors import CONFLICT
from clabber_league.games.models import Game
from clabber_league.rules.errors import gettext_noop, msg

from .. import bracket as planner
from ..hooks import tie_walked_over
from ..models import Cup, Entrant, Stage, Tie, TieGame
from . import CupError

TIE_DONE = gettext_lazy("This tie is already decided.")
TIE_NOT_READY = gettext_lazy("This tie waits for its sides: {home} v {away}.")
TIE_GAME_OPEN = gettext_lazy(
    "Game {number} of this tie is not confirmed yet: a tie's next game starts once the "
    "last one is confirmed."
)
TIE_GAME_IN_PROGRESS = gettext_lazy(
    "Game {number} of this tie is in progress: finish it (or abandon it) first."
)
TIE_TOO_MANY_GAMES = gettext_lazy("A tie takes at most {cap} games.")
#: The notes the server writes on a tie (``Tie.note`` in English, ``Tie.note_data`` for
#: the pages: ``core.messages``).
TIED_GAME = gettext_noop(
    "Game {number} ended level: a knockout tie needs a winner. Play a deciding game "
    "(a rule set with tie_at_target: play_on never ends level)."
)
WALKOVER_ABSENT = gettext_noop("Walkover: {name} did not play.")
WALKOVER_ALONE = gettext_noop("Walkover: {name} was the only one to turn up.")
#: Two players who play heads-up at a table a player short (a value of SHORT_NOTE).
TWO_PLAYERS = gettext_noop("{first} and {second}")
TEAM_OTHER_CLUB = gettext_lazy("{team} is not one of the club's teams.")
ABSENT_SIDE = gettext_lazy("Say which side did not turn up: home or away.")
CUP_NOT_DRAWN = gettext_lazy("This cup is not drawn yet.")
ABSENT_NOT_PLAYING = gettext_lazy("The {side} side is not playing at this table.")
HEADS_UP_NONE = gettext_lazy(
    "This table is a player short, and {ruleset} has no two-handed game to play heads-up."
)
SHORT_NOTE = gettext_noop("{name} did not turn up: {others} play heads-up ({rules}).")
#: A table of three a player short whose rule set has no two-handed game (SHORT_NOTE's rules).
NO_HEADS_UP_GAME = gettext_noop("no two-handed game")
MAX_TIE_GAMES = 15

#: A three-handed rule set's two-handed game, played at a table a player short.
HEADS_UP = {"clabber-3": "clabber-2", "klaberjass-3": "klaberjass"}


def heads_up_rules(rules: Any) -> Any:
    """The rules a table of three a player short plays by: the rule set's two-handed game
    (house rules keep their options over the two-handed base); ``None`` if it has none."""
    if isinstance(rules, str):
        return HEADS_UP.get(rules)
    if isinstance(rules, dict):
        base = HEADS_UP.get(rules.get("base", rules.get("name")))
        if base is None:
            return None
        return {"base": base, "options": dict(rules.get("options") or {})}
    return None


def _set_note(tie: Tie, typed: str = "", written: Any = None) -> list[str]:
    """The tie's note: the one the secretary ``typed`` (kept as typed), else the sentence
    the server ``written`` (``msg``: its English in ``note``, its template and values in
    ``note_data``), else none. The fields to save."""
    if typed:
        tie.note, tie.note_data = typed[:200], {}
    elif written is not None:
        tie.note, tie.note_data = str(written)[:200], messages.part(written)
    else:
        tie.note, tie.note_data = "", {}
    return ["note", "note_data"]


def _entrant_label(entrant: Entrant | None, source: str) -> str:
    """The entrant's name, or where the side will come from in the active language
    ("Winnaar van M1-2" on a Dutch page)."""
    from ..selectors import source_shown

    return entrant.name if entrant is not None else source_shown(source)


def _tie_games(tie: Tie) -> list[TieGame]:
    return list(tie.tie_games.select_related("game").order_by("number"))


def tie_wins(tie: Tie, games: Sequence[TieGame] | None = None) -> tuple[dict[str, int], int | None]:
    """Games won by each side of the tie (``home``, ``away``, and ``third`` at a table of
    three; confirmed games only), and the number of the last confirmed game that ended
    level, if any since the last game with a winner."""
    games = _tie_games(tie) if games is None else games
    wins = dict.fromkeys(tie.side_names(), 0)
    level: int | None = None
    for tg in games:
        if tg.game.status != Game.Status.CONFIRMED:
            continue
        side = tg.side_of(tg.game.winner)
        if side in wins:
            wins[side], level = wins[side] + 1, None
        else:
            level = tg.number
    return wins, level


def tie_score(tie: Tie, games: Sequence[TieGame] | None = None) -> tuple[int, int, int | None]:
    """Games won by the home and the away side (confirmed games only), and the number of the
    last confirmed game that ended level, if any since the last game with a winner."""
    wins, level = tie_wins(tie, games)
    return wins["home"], wins["away"], level


def _open_game(games: Sequence[TieGame]) -> TieGame | None:
    for tg in games:
        if tg.game.status in (Game.Status.IN_PROGRESS, Game.Status.FINISHED):
            return tg
    return None


def _decide_from_games(tie: Tie) -> bool:
    """Record the tie's result if its confirmed games give one; note a level game. Returns
    whether the tie became decided."""
    games = _tie_games(tie)
    wins, level = tie_wins(tie, games)
    need = tie.cup.wins_needed
    won = next((side for side, count in wins.items() if count >= need), None)
    if won is not None:
        tie.winner = getattr(tie, won)
        # A table of three has two losers: none is named (the planner names none).
        tie.loser = None if tie.cup.sides == 3 else (tie.away if won == "home" else tie.home)
        tie.status = Tie.Status.DECIDED
        tie.decided_at = timezone.now()
        noted = _set_note(tie)
        tie.save(update_fields=["winner", "loser", "status", "decided_at", *noted])
        return True
    tie.status = Tie.Status.PLAYING if _open_game(games) else Tie.Status.READY
    noted = _set_note(tie, written=msg(TIED_GAME, number=level) if level is not None else None)
    tie.save(update_fields=["status", *noted])
    return False


@transaction.atomic
def cup_sync(*, cup: Cup, plan: planner.Bracket | None = None) -> None:
    """Bring every tie's sides and state in line with the results stored: the planner's
    ``advance`` says who is where; byes and empty places are let through; a grand-final
    reset that is not needed is void; the cup's champion is set once there is one."""
    from .setup import cup_bracket

    entrants = {e.seed: e for e in cup.entrants.all()}
    ties = {t.key: t for t in cup.ties.all()}
    if not ties:
        return
    plan = plan or cup_bracket(cup, len(entrants))
    seed_of = {e.pk: seed for seed, e in entrants.items()}
    results = {
        key: seed_of[t.winner_id]
        for key, t in ties.items()
        if t.status in (Tie.Status.DECIDED, Tie.Status.WALKOVER) and t.winner_id
    }
    progress = planner.advance(plan, results)
    playing = set(
        TieGame.objects.filter(
            tie__cup=cup, game__status__in=[Game.Status.IN_PROGRESS, Game.Status.FINISHED]
        ).values_list("tie_id", flat=True)
    )
    changed = []
    fields = ["home", "away", "third", "status", "winner", "loser"]
    for slot in progress:
        tie = ties[slot.match.key]
        before = tuple(getattr(tie, f"{f}_id" if f != "status" else f) for f in fields)
        tie.home = entrants.get(slot.home or 0)
        tie.away = entrants.get(slot.away or 0)
        tie.third = entrants.get(slot.third or 0)
        if not slot.needed:
            tie.status, tie.winner, tie.loser = Tie.Status.VOID, None, None
        elif tie.status in (Tie.Status.DECIDED, Tie.Status.WALKOVER):
            pass
        elif slot.winner is not None:  # a bye, or an empty place of the losers' bracket
            tie.status = Tie.Status.BYE
            tie.winner = entrants.get(slot.winner)
            tie.loser = None
        elif slot.ready:
            tie.status = Tie.Status.PLAYING if tie.pk in playing else Tie.Status.READY
            tie.winner = tie.loser = None
        else:
            tie.status, tie.winner, tie.loser = Tie.Status.WAITING, None, None
        after = tuple(getattr(tie, f"{f}_id" if f != "status" else f) for f in fields)
        if after != before:
            changed.append(tie)
    if changed:
        Tie.objects.bulk_update(changed, fields, batch_size=500)
    champion = entrants.get(progress.champion or 0)
    status = Cup.Status.FINISHED if champion else Cup.Status.DRAWN
    if cup.champion_id != (champion.pk if champion else None) or cup.status != status:
        cup.champion = champion
        cup.status = status
        cup.save(update_fields=["champion", "status"])


def _lock_tie(tie: Tie) -> Tie:
    Cup.objects.select_for_update().filter(pk=tie.cup_id).first()
    return (
        Tie.objects.select_for_update(of=("self",))
        .select_related(
            "cup",
            "home__team",
            "away__team",
            "home__player",
            "away__player",
            "third__player",
        )
        .get(pk=tie.pk)
    )


def _playable(tie: Tie) -> None:
    if tie.is_done:
        raise CupError.one("tie", TIE_DONE, kind=CONFLICT)
    if tie.cup.sides == 3:
        waiting = tie.status == Tie.Status.WAITING
    else:
        waiting = tie.home_id is None or tie.away_id is None
    if waiting:
        names = [
            _entrant_label(getattr(tie, side), getattr(tie, f"{side}_from"))
            for side in tie.side_names()
        ]
        message = TIE_NOT_READY.format(home=names[0], away=" v ".join(names[1:]))
        raise CupError.one("tie", message, kind=CONFLICT)


def _refuse_open_game(games: Sequence[TieGame]) -> None:
    """A tie's game in progress, or finished but not confirmed, holds the tie (409)."""
    open_game = _open_game(games)
    if open_game is not None:
        template = (
            TIE_GAME_IN_PROGRESS
            if open_game.game.status == Game.Status.IN_PROGRESS
            else TIE_GAME_OPEN
        )
        raise CupError.one("tie", template.format(number=open_game.number), kind=CONFLICT)


def _default_seats(tie: Tie) -> list[Player]:
    """The players of the two sides, seated alternately (partners opposite each other):
    the teams' players in their order, or the two players."""
    if tie.cup.entrant_kind == Cup.Kind.PLAYERS:
        return [entrant.player for _, entrant in tie.present()]
    home = [m.player for m in tie.home.team.members.select_related("player")]
    away = [m.player for m in tie.away.team.members.select_related("player")]
    seats: list[Player] = []
    for a, b in zip(home, away, strict=False):
        seats += [a, b]
    return seats


@transaction.atomic
def tie_game_start(
    *,
    tie: Tie,
    seats: Sequence[Player] | None = None,
    first_dealer: int | None = None,
    user: Any = None,
) -> Game:
    """Start the tie's next game through ``games.services.game_start``: a division-less
    game of the cup's rules, side A the home entrant, side B the away one (C the third at a
    table of three; a table of three a player short plays :data:`HEADS_UP`, its two
    players sides A and B in the tie's order). Refused while the tie is decided, waits for
    a side, or has a game not yet confirmed (409)."""
    from clabber_league.games.services import game_start

    tie = _lock_tie(tie)
    _playable(tie)
    games = _tie_games(tie)
    _refuse_open_game(games)
    if len(games) >= MAX_TIE_GAMES:
        raise CupError.one("tie", TIE_TOO_MANY_GAMES.format(cap=MAX_TIE_GAMES), kind=CONFLICT)
    cup = tie.cup
    rules = cup.rules
    present = tie.present()
    if cup.sides == 3 and len(present) == 2:
        rules = heads_up_rules(cup.rules)
        if rules is None:
            slug = cup.rules if isinstance(cup.rules, str) else cup.rules.get("base")
            raise CupError.one("tie", HEADS_UP_NONE.format(ruleset=slug), kind=CONFLICT)
    sides: dict[str, Any] = {"A": None, "B": None}
    if cup.entrant_kind == Cup.Kind.TEAMS:
        errors = [
            {"field": f"sides.{side}", "message": TEAM_OTHER_CLUB.format(team=e.team.name)}
            for side, e in (("A", tie.home), ("B", tie.away))
            if e.team.club_id != cup.club_id
        ]
        if errors:
            raise CupError(errors)
        sides = {"A": tie.home.team, "B": tie.away.team}
    game = game_start(
        club=cup.club,
        division=None,
        rules=rules,
        sides=sides,
        seats=list(seats) if seats is not None else _default_seats(tie),
        first_dealer=first_dealer,
        user=user,
    )
    number = (games[-1].number if games else 0) + 1
    TieGame.objects.create(
        tie=tie,
        game=game,
        number=number,
        sides="" if cup.sides == 2 else ",".join(side for side, _ in present),
    )
    tie.status = Tie.Status.PLAYING
    tie.save(update_fields=["status"])
    return game


@transaction.atomic
def tie_walkover(*, tie: Tie, absent: str, note: str = "", user: Any = None) -> Tie:
    """The ``absent`` side (``home`` or ``away``) did not turn up: the other side goes
    through. At a table of three (``absent`` may be ``third``) the other two play heads-up,
    and a table left with one player is a walkover for that player. Refused for a decided
    tie, one still waiting for a side, or one with a game in progress (409)."""
    if absent not in ("home", "away", "third"):
        raise CupError.one("absent", ABSENT_SIDE)
    tie = _lock_tie(tie)
    if tie.cup.sides == 3:
        return _table_walkover(tie, absent, note)
    if absent == "third":
        raise CupError.one("absent", ABSENT_SIDE)
    _playable(tie)
    _refuse_open_game(_tie_games(tie))
    tie.winner = tie.away if absent == "home" else tie.home
    tie.loser = tie.home if absent == "home" else tie.away
    tie.status = Tie.Status.WALKOVER
    tie.decided_at = timezone.now()
    noted = _set_note(tie, note, msg(WALKOVER_ABSENT, name=tie.loser.name))
    tie.save(update_fields=["winner", "loser", "status", "decided_at", *noted])
    cup_sync(cup=tie.cup)
    tie_walked_over.send(tie=tie)
    return tie


def _table_walkover(tie: Tie, absent: str, note: str) -> Tie:
    _playable(tie)
    _refuse_open_game(_tie_games(tie))
    present = dict(tie.present())
    if absent not in present:
        raise CupError.one("absent", ABSENT_NOT_PLAYING.format(side=absent))
    gone = present.pop(absent)
    tie.absent = ",".join(sorted({*tie.absent.split(","), absent} - {""}))
    if len(present) == 1:
        (winner,) = present.values()
        tie.winner, tie.loser = winner, None
        tie.status = Tie.Status.WALKOVER
        tie.decided_at = timezone.now()
        noted = _set_note(tie, note, msg(WALKOVER_ALONE, name=winner.name))
        tie.save(update_fields=["absent", "winner", "loser", "status", "decided_at", *noted])
        cup_sync(cup=tie.cup)
        tie_walked_over.send(tie=tie)
        return tie
    names = [e.name for e in present.values()]
    others = msg(TWO_PLAYERS, first=names[0], second=names[1]) if len(names) == 2 else names
    rules = heads_up_rules(tie.cup.rules)
    base = rules if isinstance(rules, str) else (rules or {}).get("base")
    written = msg(
        SHORT_NOTE,
        name=gone.name,
        others=others if len(names) == 2 else ", ".join(names),
        rules=base or msg(NO_HEADS_UP_GAME),
    )
    noted = _set_note(tie, note, written)
    tie.save(update_fields=["absent", *noted])
    return tie


# --- the hook -------------------------------------------------------------------------------


def cups_game_changed(*, game: Game, status_before: str | None = None, **_: Any) -> None:
    """The handler of ``games.hooks.game_changed``. Only a change of a game's status
    matters here (a deal recorded in a game in progress costs nothing):

    * a tie's game: the tie's state follows it; once confirmed, the tie may be decided and
      the bracket moves on (``cup_sync``), in the game's own transaction;
    * a league game confirmed: a play-off waiting for its division may now be complete,
      and its knockout is built by a task queued when the transaction commits.
    """
    if status_before is not None and status_before == game.status:
        return
    if game.division_id is None:
        link = TieGame.objects.select_related("tie__cup").filter(game_id=game.pk).first()
        if link is None:
            return
        tie = link.tie
        if tie.is_done:
            return
        if _decide_from_games(tie):
            cup_sync(cup=tie.cup)
        return
    if game.status != Game.Status.CONFIRMED:
        return
    stages = Stage.objects.filter(
        kind=Stage.Kind.LEAGUE, build=Stage.Build.WAITING, divisions=game.division_id
    )
    if stages.exists():
        from .build import stage_build_queue_if_complete

        for stage in stages:
            stage_build_queue_if_complete(stage=stage)


def cups_fixture_changed(*, fixture: Any, **_: Any) -> None:
    """The handler of ``scheduling.hooks.fixture_changed``: a forfeit or walkover may be the
    last result of a play-off's league stage; its knockout is then built (on commit)."""
    stages = Stage.objects.filter(
        kind=Stage.Kind.LEAGUE, build=Stage.Build.WAITING, divisions=fixture.division_id
    )
    if stages.exists():
        from .build import stage_build_queue_if_complete

        for stage in stages:
            stage_build_queue_if_complete(stage=stage)
