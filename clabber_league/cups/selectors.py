"""Reading cups: every query starts from the club.

``cup_bracket_view`` is what the bracket drawing (``templates/cups/_bracket.html``) is fed:
the planner's sections (rounds, in drawing order, with their titles) and the stored ties,
each with both sides (name, seed, games won, winner), its state, night and table, and
links to its page and its games. Reading a bracket costs a fixed number of queries
whatever its size.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

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
    return cup.ties.select_related("home", "away", "winner", "venue").order_by("order")


def tie_get(*, club: Club, cup_id: int, pk: int) -> Tie:
    return (
        Tie.objects.filter(cup__club=club, cup_id=cup_id)
        .select_related("cup", "home", "away", "winner", "loser", "venue")
        .get(pk=pk)
    )


def entrant_list(*, cup: Cup) -> QuerySet[Entrant]:
    return cup.entrants.select_related("team__division", "player").order_by("seed")


def league_stage(*, cup: Cup) -> Stage | None:
    return cup.stages.filter(kind=Stage.Kind.LEAGUE).prefetch_related("divisions").first()


def seeding_notes(*, cup: Cup) -> list[str]:
    stage = cup.stages.filter(kind=Stage.Kind.KNOCKOUT).first()
    return list(stage.notes) if stage is not None else []


def tie_games(*, tie: Tie) -> list[TieGame]:
    return list(tie.tie_games.select_related("game").order_by("number"))


def _score(games: list[TieGame]) -> tuple[int, int]:
    home = sum(
        1 for tg in games if tg.game.status == Game.Status.CONFIRMED and tg.game.winner == "A"
    )
    away = sum(
        1 for tg in games if tg.game.status == Game.Status.CONFIRMED and tg.game.winner == "B"
    )
    return home, away


def _side(entrant: Entrant | None, source: str, score: int, tie: Tie) -> dict[str, Any]:
    return {
        "name": entrant.name if entrant else ("Bye" if source == "Bye" else source),
        "seed": entrant.seed if entrant else None,
        "known": entrant is not None,
        "score": score,
        "winner": bool(entrant and tie.winner_id == entrant.pk),
    }


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
        home, away = _score(mine)
        by_section[(tie.bracket, tie.round)].append(
            {
                "id": tie.pk,
                "key": tie.key,
                "status": tie.status,
                "status_label": tie.get_status_display(),
                "home": _side(tie.home, tie.home_from, home, tie),
                "away": _side(tie.away, tie.away_from, away, tie),
                "date": tie.date,
                "venue": tie.venue.name if tie.venue else "",
                "table": tie.table,
                "note": tie.note,
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
    for bracket, rnd in sorted(by_section, key=lambda br: (planner.BRACKETS.index(br[0]), br[1])):
        sections.append(
            {
                "bracket": bracket,
                "round": rnd,
                "title": plan.round_title(bracket, rnd) if plan else f"Round {rnd}",
                "ties": by_section[(bracket, rnd)],
            }
        )
    return {
        "cup": cup,
        "champion": cup.champion.name if cup.champion_id else None,
        "sections": sections,
    }


def tie_state(*, tie: Tie, games: list[TieGame] | None = None) -> dict[str, Any]:
    """What a tie's page says: the score in games, what is needed to win, the open game."""
    games = tie_games(tie=tie) if games is None else games
    home, away = _score(games)
    open_game = next(
        (tg for tg in games if tg.game.status in (Game.Status.IN_PROGRESS, Game.Status.FINISHED)),
        None,
    )
    return {
        "home_wins": home,
        "away_wins": away,
        "needed": tie.cup.wins_needed,
        "open_game": open_game,
        "games": games,
        "can_start": not tie.is_done
        and tie.home_id is not None
        and tie.away_id is not None
        and open_game is None,
        "tied_note": tie.note if tie.note.startswith(TIED_GAME.split("{")[0]) else "",
    }
