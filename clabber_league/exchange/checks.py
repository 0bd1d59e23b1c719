"""What a results file must say of itself beyond its schema, and the rows a federation
keeps of it. Pure Python (no Django): the import (``exchange.services``) adds what only the
database knows (the club is a member, the numbers exist).

Each problem is one error entry, ``{"field": "placings[2].score", "message": ...}``, the
field a path into the file as the schema's errors name it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from clabber_league.core.errors import ServiceError

from .messages import (
    DATES_BACKWARDS,
    PLACE_SCORE_HIGHER,
    PLACE_SCORE_SHARED,
    PLAYER_IN_TWO_SIDES,
    PLAYER_NUMBER_TWICE,
    PLAYER_TWICE,
    PLAYER_TWICE_AT_TABLE,
    SIDE_PLACED_TWICE,
    SIDE_TWICE,
    UNKNOWN_PLAYER,
    UNKNOWN_SIDE,
    msg,
)


def _err(path: str, text: str) -> dict[str, str]:
    return {"field": path, "message": text}


def number_for(player: Mapping[str, Any], federation: str) -> str:
    """The player's number in ``federation`` as the file gives it ("" when not linked)."""
    for entry in player.get("numbers") or ():
        if entry.get("federation") == federation:
            return str(entry.get("number") or "")
    return ""


def semantic_errors(payload: Mapping[str, Any], *, federation: str) -> list[dict[str, str]]:
    """Every contradiction in a file that matches the schema, one entry each."""
    errors: list[dict[str, str]] = []
    event = payload["event"]
    if event["date_to"] < event["date_from"]:
        errors.append(_err("event.date_to", msg(DATES_BACKWARDS)))

    players: dict[str, Mapping[str, Any]] = {}
    numbers: dict[str, str] = {}
    for i, player in enumerate(payload["players"]):
        ref = player["id"]
        if ref in players:
            errors.append(_err(f"players[{i}].id", msg(PLAYER_TWICE, player=ref)))
            continue
        players[ref] = player
        number = number_for(player, federation)
        if number and number in numbers:
            errors.append(
                _err(
                    f"players[{i}].numbers",
                    msg(PLAYER_NUMBER_TWICE, number=number, player=ref, other=numbers[number]),
                )
            )
        elif number:
            numbers[number] = ref

    sides: set[str] = set()
    side_of: dict[str, str] = {}
    for i, side in enumerate(payload["sides"]):
        if side["id"] in sides:
            errors.append(_err(f"sides[{i}].id", msg(SIDE_TWICE, side=side["id"])))
            continue
        sides.add(side["id"])
        for j, ref in enumerate(side["players"]):
            path = f"sides[{i}].players[{j}]"
            if ref not in players:
                errors.append(_err(path, msg(UNKNOWN_PLAYER, player=ref)))
            elif ref in side_of:
                errors.append(_err(path, msg(PLAYER_IN_TWO_SIDES, player=ref, side=side_of[ref])))
            else:
                side_of[ref] = side["id"]

    placed: set[str] = set()
    ranked: list[tuple[int, int, Any]] = []  # (place, index, score)
    for i, placing in enumerate(payload["placings"]):
        if placing["side"] not in sides:
            errors.append(_err(f"placings[{i}].side", msg(UNKNOWN_SIDE, side=placing["side"])))
        elif placing["side"] in placed:
            errors.append(_err(f"placings[{i}].side", msg(SIDE_PLACED_TWICE, side=placing["side"])))
        placed.add(placing["side"])
        if placing.get("score") is not None:
            ranked.append((placing["place"], i, placing["score"]))
    errors.extend(_placings_against_scores(ranked, payload["placings"]))

    for i, game in enumerate(payload["games"]):
        seen: set[str] = set()
        for j, seat in enumerate(game["seats"]):
            path = f"games[{i}].seats[{j}].player"
            if seat["player"] not in players:
                errors.append(_err(path, msg(UNKNOWN_PLAYER, player=seat["player"])))
            elif seat["player"] in seen:
                errors.append(_err(path, msg(PLAYER_TWICE_AT_TABLE, player=seat["player"])))
            seen.add(seat["player"])
        for j, side in enumerate(game["sides"]):
            if side.get("entrant") and side["entrant"] not in sides:
                errors.append(
                    _err(f"games[{i}].sides[{j}].entrant", msg(UNKNOWN_SIDE, side=side["entrant"]))
                )
    return errors


def _placings_against_scores(
    ranked: list[tuple[int, int, Any]], placings: list[Mapping[str, Any]]
) -> list[dict[str, str]]:
    """A placing below another must not have scored more; a shared place, the same score.
    Each placing out of line is one error, named against the best place that beats it."""
    errors = []
    ranked.sort()
    for k, (place, index, score) in enumerate(ranked):
        above = [(p, i, s) for p, i, s in ranked[:k] if p < place and s < score]
        level = [(p, i, s) for p, i, s in ranked[:k] if p == place and s != score]
        side = placings[index]["side"]
        if above:
            p, i, s = above[0]
            errors.append(
                _err(
                    f"placings[{index}].score",
                    msg(
                        PLACE_SCORE_HIGHER,
                        side=side,
                        place=place,
                        score=score,
                        other=placings[i]["side"],
                        other_place=p,
                        other_score=s,
                    ),
                )
            )
        elif level:
            p, i, s = level[0]
            errors.append(
                _err(
                    f"placings[{index}].score",
                    msg(PLACE_SCORE_SHARED, side=side, place=place, other=placings[i]["side"]),
                )
            )
    return errors


def refuse_if_any(errors: list[dict[str, str]]) -> None:
    if errors:
        raise ServiceError(errors)


# --- the rows kept of a file -------------------------------------------------------------


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in one event, as ``ImportedResult`` keeps it."""

    player: str  # the file's player id
    name: str
    number: str  # in the importing federation, "" when not linked
    side: str  # the placed side the player belongs to, "" when none
    place: int | None
    places: int  # how many placings the event has (the field's size)
    score: float | None  # the placing's score, as the event ranks (event.ranking)
    points: int  # the player's side's points over the games they played
    points_available: int  # every side's points at those games
    games: int

    @property
    def share(self) -> float | None:
        """The share of the points available at the player's tables that their side took:
        comparable across house rules, targets and table sizes."""
        if not self.points_available:
            return None
        return round(self.points / self.points_available, 6)


def player_results(payload: Mapping[str, Any], *, federation: str) -> list[PlayerResult]:
    """A row per player of the file, in the file's order of players."""
    side_of = {ref: s["id"] for s in payload["sides"] for ref in s["players"]}
    placing = {p["side"]: p for p in payload["placings"]}
    points: dict[str, int] = defaultdict(int)
    available: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    for game in payload["games"]:
        if game["status"] not in ("finished", "confirmed"):
            continue
        scores = {s["side"]: s["score"] or 0 for s in game["sides"]}
        total = sum(max(v, 0) for v in scores.values())
        for seat in game["seats"]:
            ref = seat["player"]
            points[ref] += max(scores.get(seat["side"], 0), 0)
            available[ref] += total
            games[ref] += 1
    out = []
    for player in payload["players"]:
        ref = player["id"]
        side = side_of.get(ref, "")
        placed = placing.get(side)
        score = placed.get("score") if placed else None
        out.append(
            PlayerResult(
                player=ref,
                name=player["name"],
                number=number_for(player, federation),
                side=side,
                place=placed["place"] if placed else None,
                places=len(payload["placings"]),
                score=float(score) if score is not None else None,
                points=points[ref],
                points_available=available[ref],
                games=games[ref],
            )
        )
    return out


def game_sides(game: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A game's sides with their players and rank (1 the most points; level points share)."""
    players: dict[str, list[str]] = defaultdict(list)
    for seat in game["seats"]:
        players[seat["side"]].append(seat["player"])
    scores = [s["score"] or 0 for s in game["sides"]]
    return [
        {
            "side": s["side"],
            "players": players[s["side"]],
            "score": s["score"],
            "rank": 1 + sum(1 for other in scores if other > (s["score"] or 0)),
        }
        for s in game["sides"]
    ]
