"""Reading cups: every query starts from the club.

``cup_bracket_view`` is what the bracket drawing (``templates/cups/_bracket.html``) is fed:
the planner's sections (rounds, in drawing order, with their titles) and the stored ties,
each with both sides (name, seed, games won, winner), its state, night and table, and
links to its page and its games. Reading a bracket costs a fixed number of queries
whatever its size.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext

from clabber_league.clubs.models import Club
from clabber_league.games.models import Game

from . import bracket as planner
from .models import Cup, Entrant, Stage, Tie, TieGame
from .services.progress import TIED_GAME


def cup_list(*, club: Club) -> QuerySet[Cup]:
    return Cup.objects.filter(club=club).select_related("champion").order_by("-created_at", "-id")


def cup_get(*, club: Club, pk: int) -> Cup:
    """One cup of the club; ``Cup.DoesNotExist`` otherwise."""
    return Cup.objects.filter(club=club).select_related("champion").get(pk=pk)


def tie_list(*, cup: Cup) -> QuerySet[Tie]:
    return cup.ties.select_related("cup", "home", "away", "third", "winner", "venue").order_by(
        "order"
    )


def tie_get(*, club: Club, cup_id: int, pk: int) -> Tie:
    return (
        Tie.objects.filter(cup__club=club, cup_id=cup_id)
        .select_related("cup", "home", "away", "third", "winner", "loser", "venue")
        .get(pk=pk)
    )


def entrant_list(*, cup: Cup) -> QuerySet[Entrant]:
    return cup.entrants.select_related("team__division", "player").order_by("seed")


def league_stage(*, cup: Cup) -> Stage | None:
    return cup.stages.filter(kind=Stage.Kind.LEAGUE).prefetch_related("divisions").first()


def seeding_notes(*, cup: Cup) -> list[str]:
    """How the knockout was seeded, in the reader's language (``Stage.notes_shown``)."""
    stage = cup.stages.filter(kind=Stage.Kind.KNOCKOUT).first()
    return stage.notes_shown if stage is not None else []


def source_shown(source: str) -> str:
    """Where a tie's side comes from ("Seed 3", "Winner of M1-2", "Bye"), in the reader's
    language: the bracket stores it once, in English (the API's ``home_from``).

    Read back rather than stored as a template and values: the four forms are written
    only by ``setup._source_text`` from the planner's sources (a seed number or a match
    key, never a person's name), so the English text is itself a complete, exact code;
    the API keeps returning it unchanged, and ties (written by COPY, a thousand for a big
    cup) carry no JSON beside each of their three sides."""
    if source == "Bye":
        return gettext("Bye")
    if found := re.fullmatch(r"Seed (\d+)", source):
        return gettext("Seed %(seed)s") % {"seed": found[1]}
    if found := re.fullmatch(r"(Winner|Loser) of (.+)", source):
        if found[1] == "Winner":
            return gettext("Winner of %(match)s") % {"match": found[2]}
        return gettext("Loser of %(match)s") % {"match": found[2]}
    return source


def tie_games(*, tie: Tie) -> list[TieGame]:
    return list(tie.tie_games.select_related("game").order_by("number"))


def _wins(tie: Tie, games: list[TieGame]) -> dict[str, int]:
    """Confirmed games won by each of the tie's sides (home, away, and third at a table of
    three)."""
    wins = dict.fromkeys(tie.side_names(), 0)
    for tg in games:
        if tg.game.status == Game.Status.CONFIRMED:
            side = tg.side_of(tg.game.winner)
            if side in wins:
                wins[side] += 1
    return wins


def _score(tie: Tie, games: list[TieGame]) -> tuple[int, int]:
    wins = _wins(tie, games)
    return wins["home"], wins["away"]


def _side(
    entrant: Entrant | None, source: str, score: int, tie: Tie, absent: bool = False
) -> dict[str, Any]:
    return {
        "name": entrant.name if entrant else source_shown(source),
        "seed": entrant.seed if entrant else None,
        "known": entrant is not None,
        "score": score,
        "winner": bool(entrant and tie.winner_id == entrant.pk),
        "absent": absent,
    }


def _join(plan: planner.Bracket, bracket: str, rnd: int) -> str:
    """How a round's winners go on to the next column of its line of the drawing (the
    connectors of the wide view): ``pair`` (two ties to one), ``triple`` (three tables to
    one), ``straight`` (one to one), ``none`` (the next column is not where they go)."""
    last = {
        b: max(m.round for m in plan.matches if m.bracket == b)
        for b in {m.bracket for m in plan.matches}
    }
    if bracket == planner.MAIN:
        if rnd < last[bracket]:
            return "triple" if plan.table == 3 else "pair"
        return "straight" if plan.double else "none"
    if bracket == planner.FINAL:
        return "straight" if plan.reset else "none"
    if bracket == planner.PLATE:
        return "pair" if rnd < last[bracket] else "none"
    if bracket == planner.LOSERS and rnd < last[bracket]:
        # An odd round's winners meet the main bracket's next losers one to one; an even
        # round's winners are paired.
        return "straight" if rnd % 2 == 1 else "pair"
    return "none"


def cup_bracket_view(*, cup: Cup) -> dict[str, Any]:
    """The bracket as the drawing shows it: ``sections`` (bracket, round, title, ties), the
    champion, and per tie both sides, its state, place and links."""
    club_slug = cup.club.slug
    ties = list(tie_list(cup=cup))
    games: dict[int, list[TieGame]] = defaultdict(list)
    for tg in TieGame.objects.filter(tie__cup=cup).select_related("game").order_by("number"):
        games[tg.tie_id].append(tg)
    by_section: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for tie in ties:
        mine = games.get(tie.pk, [])
        wins = _wins(tie, mine)
        sides = {
            side: _side(
                getattr(tie, side),
                getattr(tie, f"{side}_from"),
                wins[side],
                tie,
                absent=side in tie.absent.split(","),
            )
            for side in tie.side_names()
        }
        by_section[(tie.bracket, tie.round)].append(
            {
                "id": tie.pk,
                "key": tie.key,
                "status": tie.status,
                "status_label": tie.get_status_display(),
                "home": sides["home"],
                "away": sides["away"],
                "third": sides.get("third"),
                "sides": list(sides.values()),
                "date": tie.date,
                "venue": tie.venue.name if tie.venue else "",
                "table": tie.table,
                "note": tie.note_shown,
                "url": reverse("cups:tie", args=[club_slug, cup.pk, tie.pk]),
                "games": [
                    {
                        "number": tg.number,
                        "status": tg.game.status,
                        "url": reverse("games:detail", args=[club_slug, tg.game_id]),
                    }
                    for tg in mine
                ],
            }
        )
    sections = []
    plan = None
    if ties:
        from .services.setup import cup_bracket

        plan = cup_bracket(cup)
    order = sorted(by_section, key=lambda br: (planner.BRACKETS.index(br[0]), br[1]))
    for bracket, rnd in order:
        join = _join(plan, bracket, rnd) if plan else "none"
        sections.append(
            {
                "bracket": bracket,
                "round": rnd,
                # In the active language (the API's is English).
                "title": plan.round_title(bracket, rnd, gettext)
                if plan
                else gettext(planner.ROUND_NUMBERED).format(round=rnd),
                "ties": by_section[(bracket, rnd)],
                "join": join,
                "fed": False,
            }
        )
    for before, after in itertools.pairwise(sections):
        # The connector's far end: a round fed by the one before it on the same line.
        after["fed"] = before["join"] != "none"
    return {
        "cup": cup,
        "champion": cup.champion.name if cup.champion_id else None,
        "sections": sections,
    }


def tie_state(*, tie: Tie, games: list[TieGame] | None = None) -> dict[str, Any]:
    """What a tie's page says: the score in games, what is needed to win, the open game."""
    games = tie_games(tie=tie) if games is None else games
    wins = _wins(tie, games)
    home, away = wins["home"], wins["away"]
    open_game = next(
        (tg for tg in games if tg.game.status in (Game.Status.IN_PROGRESS, Game.Status.FINISHED)),
        None,
    )
    return {
        "home_wins": home,
        "away_wins": away,
        "wins": wins,
        "sides": [
            {
                "side": side,
                "name": getattr(tie, side).name
                if getattr(tie, f"{side}_id")
                else source_shown(getattr(tie, f"{side}_from")),
                "wins": wins[side],
                "absent": side in tie.absent.split(","),
            }
            for side in tie.side_names()
        ],
        "needed": tie.cup.wins_needed,
        "open_game": open_game,
        "games": games,
        "can_start": not tie.is_done
        and len(tie.present()) >= 2
        and (tie.cup.sides == 2 or tie.status != Tie.Status.WAITING)
        and open_game is None,
        "can_walkover": not tie.is_done
        and open_game is None
        and len(tie.present()) >= 2
        and tie.status != Tie.Status.WAITING,
        "heads_up": tie.cup.sides == 3 and len(tie.present()) == 2,
        "rows": [
            {
                "tg": tg,
                "won": (
                    getattr(tie, tg.side_of(tg.game.winner)).name
                    if tg.side_of(tg.game.winner)
                    else ("level" if tg.game.winner == "tie" else "")
                ),
                "scores": " \N{EN DASH} ".join(
                    f"{getattr(tie, tg.side_of(letter)).name} {v}"
                    if tg.side_of(letter) and getattr(tie, tg.side_of(letter)) is not None
                    else str(v)
                    for letter, v in zip(
                        "ABC", (tg.game.score_a, tg.game.score_b, tg.game.score_c), strict=True
                    )
                    if v is not None
                ),
            }
            for tg in games
        ],
        "tied_note": tie.note_shown
        if tie.note_data.get("template") == TIED_GAME
        or (not tie.note_data and tie.note.startswith(TIED_GAME.split("{")[0]))
        else "",
    }
