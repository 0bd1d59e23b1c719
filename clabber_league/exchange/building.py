"""The results file, version 1, as plain data: built from what a club holds, turned into
canonical bytes (its SHA-256 is the file's identity) and into its XML form and back.

Pure Python (no Django): ``exchange.reading`` reads the rows and hands them here as the
dataclasses below, so the shape of the file is decided, and tested, in one place.
``docs/exchange.md`` describes every field; ``schemas/results-v1.schema.json`` checks it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

FORMAT = "clabber-results"
VERSION = 1
#: The kinds of event a file holds: a league fixture, a whole division of a season, a club
#: night (or one-day tournament), a cup.
KINDS = ("fixture", "division", "night", "cup")
#: What a placing's ``score`` measures, by the event's way of ranking.
RANKINGS = ("games_won", "match_points", "points", "share", "match_points_per_table", "knockout")
#: Keys left out of the canonical form: the same results exported twice are one file.
NOT_CANONICAL = ("generated_at",)

Score = int | float


@dataclass(frozen=True)
class PlayerIn:
    id: int  # the club's own id of the player (club-local)
    name: str
    numbers: Sequence[tuple[str, str]] = ()  # (federation slug, player number), linked ones


@dataclass(frozen=True)
class SideIn:
    key: str  # "t12" a team, "p7" a player, "r3" a pair, "e4" a cup entrant
    name: str
    players: Sequence[int] = ()


@dataclass(frozen=True)
class PlacingIn:
    side: str
    place: int
    score: Score | None = None


@dataclass(frozen=True)
class DealIn:
    number: int
    dealer: int
    outcome: str
    maker: str
    data: Mapping[str, Any]
    scores: Mapping[str, int]


@dataclass(frozen=True)
class GameIn:
    id: int
    status: str
    winner: str
    rules: str | Mapping[str, Any]
    seats: Sequence[tuple[int, str]]  # (player id, side letter), seat 0 first
    scores: Mapping[str, int]  # side letter -> the game's points
    entrants: Mapping[str, str] = field(default_factory=dict)  # side letter -> SideIn.key
    date: dt.date | None = None
    round: int | None = None
    table: str | None = None
    deals: Sequence[DealIn] = ()


@dataclass(frozen=True)
class EventIn:
    kind: str
    key: str
    name: str
    date_from: dt.date
    date_to: dt.date
    rules: str | Mapping[str, Any]
    ranking: str
    season: str | None = None
    division: str | None = None


@dataclass(frozen=True)
class SenderIn:
    club_slug: str
    club_name: str
    federations: Sequence[tuple[str, str]] = ()  # (slug, name)
    site: str | None = None


def rules_entry(rules: str | Mapping[str, Any]) -> dict[str, Any]:
    """A rule set as the file states it: a built-in one (its slug as ``base``, no name, no
    options) or house rules (their name, the built-in set they start from, the options)."""
    if isinstance(rules, str):
        return {"base": rules, "name": None, "options": {}}
    return {
        "base": str(rules.get("base", "")),
        "name": rules.get("name") or None,
        "options": dict(rules.get("options") or {}),
    }


def player_ref(pk: int) -> str:
    return f"p{pk}"


def results_file(
    *,
    sender: SenderIn,
    event: EventIn,
    players: Iterable[PlayerIn],
    sides: Iterable[SideIn],
    placings: Iterable[PlacingIn],
    games: Iterable[GameIn],
    generated_at: dt.datetime,
    generator: str = "clabber-league",
) -> dict[str, Any]:
    """The results file of one event, as the JSON it is written as (every key present,
    ``null`` where a value is missing; lists in a stable order)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "generated_at": generated_at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "generator": generator,
        "sender": {
            "site": sender.site or None,
            "club": {
                "slug": sender.club_slug,
                "name": sender.club_name,
                "federations": [
                    {"slug": slug, "name": name} for slug, name in sorted(sender.federations)
                ],
            },
        },
        "event": {
            "key": event.key,
            "kind": event.kind,
            "name": event.name,
            "date_from": event.date_from.isoformat(),
            "date_to": event.date_to.isoformat(),
            "ranking": event.ranking,
            "rules": rules_entry(event.rules),
            "season": event.season,
            "division": event.division,
        },
        "players": [
            {
                "id": player_ref(p.id),
                "name": p.name,
                "numbers": [
                    {"federation": slug, "number": number} for slug, number in sorted(p.numbers)
                ],
            }
            for p in sorted(players, key=lambda p: p.id)
        ],
        "sides": [
            {"id": s.key, "name": s.name, "players": [player_ref(pk) for pk in s.players]}
            for s in sides
        ],
        "placings": [
            {"side": p.side, "place": p.place, "score": p.score}
            for p in sorted(placings, key=lambda p: (p.place, p.side))
        ],
        "games": [_game(g) for g in sorted(games, key=lambda g: (g.date or dt.date.min, g.id))],
    }


def _game(game: GameIn) -> dict[str, Any]:
    letters = sorted(game.scores)
    return {
        "id": f"g{game.id}",
        "date": game.date.isoformat() if game.date else None,
        "round": game.round,
        "table": game.table or None,
        "status": game.status,
        "winner": game.winner or None,
        "rules": rules_entry(game.rules),
        "seats": [{"player": player_ref(pk), "side": side} for pk, side in game.seats],
        "sides": [
            {"side": s, "entrant": game.entrants.get(s), "score": game.scores[s]} for s in letters
        ],
        "deals": [
            {
                "number": d.number,
                "dealer": d.dealer,
                "outcome": d.outcome,
                "maker": d.maker or None,
                "data": dict(d.data),
                "scores": {k: d.scores[k] for k in sorted(d.scores)},
            }
            for d in sorted(game.deals, key=lambda d: d.number)
        ],
    }


# --- identity -------------------------------------------------------------------------------


def canonical(payload: Mapping[str, Any]) -> bytes:
    """The file's canonical bytes: keys sorted, no spaces, UTF-8, without ``generated_at``
    (the same results exported twice are the same file)."""
    content = {k: v for k, v in payload.items() if k not in NOT_CANONICAL}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(payload: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(payload)).hexdigest()


# --- XML ------------------------------------------------------------------------------------
# The XML form (docs/exchange.md, "The XML form") holds the same content as the JSON, element
# for object and attribute for scalar, in capitals as USEBIO writes them; a deal's engine data
# and house rules' options are JSON text inside their element (they are the rules engine's,
# not the exchange's). ``from_xml(to_xml(f)) == f`` for every valid file.

ROOT = "CLABBER_RESULTS"


def _attrs(element: ET.Element, values: Mapping[str, Any]) -> None:
    for name, value in values.items():
        if value is not None:
            element.set(name, str(value))


def _number(text: str | None) -> Score | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


def _rules_xml(parent: ET.Element, rules: Mapping[str, Any]) -> None:
    element = ET.SubElement(parent, "RULES")
    _attrs(element, {"base": rules["base"], "name": rules["name"]})
    options = ET.SubElement(element, "OPTIONS")
    options.text = json.dumps(rules["options"], sort_keys=True)


def _rules_back(element: ET.Element) -> dict[str, Any]:
    options = element.find("OPTIONS")
    return {
        "base": element.get("base", ""),
        "name": element.get("name"),
        "options": json.loads(options.text or "{}") if options is not None else {},
    }


def to_xml(payload: Mapping[str, Any]) -> str:
    root = ET.Element(ROOT)
    _attrs(
        root,
        {
            "format": payload["format"],
            "version": payload["version"],
            "generated_at": payload["generated_at"],
            "generator": payload.get("generator"),
        },
    )
    sender = ET.SubElement(root, "SENDER")
    _attrs(sender, {"site": payload["sender"]["site"]})
    club_data = payload["sender"]["club"]
    club = ET.SubElement(sender, "CLUB")
    _attrs(club, {"slug": club_data["slug"], "name": club_data["name"]})
    for fed in club_data["federations"]:
        _attrs(ET.SubElement(club, "FEDERATION"), fed)
    event_data = payload["event"]
    event = ET.SubElement(root, "EVENT")
    _attrs(event, {k: v for k, v in event_data.items() if k != "rules"})
    _rules_xml(event, event_data["rules"])
    players = ET.SubElement(root, "PLAYERS")
    for p in payload["players"]:
        player = ET.SubElement(players, "PLAYER")
        _attrs(player, {"id": p["id"], "name": p["name"]})
        for n in p["numbers"]:
            number = ET.SubElement(player, "NUMBER")
            _attrs(number, {"federation": n["federation"]})
            number.text = n["number"]
    sides = ET.SubElement(root, "SIDES")
    for s in payload["sides"]:
        side = ET.SubElement(sides, "SIDE")
        _attrs(side, {"id": s["id"], "name": s["name"]})
        for pk in s["players"]:
            _attrs(ET.SubElement(side, "MEMBER"), {"player": pk})
    placings = ET.SubElement(root, "PLACINGS")
    for p in payload["placings"]:
        _attrs(ET.SubElement(placings, "PLACING"), p)
    games = ET.SubElement(root, "GAMES")
    for g in payload["games"]:
        game = ET.SubElement(games, "GAME")
        _attrs(game, {k: g[k] for k in ("id", "date", "round", "table", "status", "winner")})
        _rules_xml(game, g["rules"])
        for seat in g["seats"]:
            _attrs(ET.SubElement(game, "SEAT"), seat)
        for side in g["sides"]:
            _attrs(ET.SubElement(game, "SIDE"), side)
        for d in g["deals"]:
            deal = ET.SubElement(game, "DEAL")
            _attrs(deal, {k: d[k] for k in ("number", "dealer", "outcome", "maker")})
            for letter, value in d["scores"].items():
                _attrs(ET.SubElement(deal, "SCORE"), {"side": letter, "value": value})
            data = ET.SubElement(deal, "DATA")
            data.text = json.dumps(d["data"], sort_keys=True)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


class XMLFormError(ValueError):
    """The text is not a results file's XML form."""


def from_xml(text: str | bytes) -> dict[str, Any]:
    """The JSON form of a results file's XML form (raises :class:`XMLFormError`)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise XMLFormError("A results file has no DOCTYPE or entities.")
    try:
        root = ET.fromstring(text.encode())
    except ET.ParseError as exc:
        raise XMLFormError(f"Not well-formed XML: {exc}") from exc
    if root.tag != ROOT:
        raise XMLFormError(f"The root element is {root.tag}, not {ROOT}.")
    try:
        return _from_root(root)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise XMLFormError(f"Not a results file's XML form: {exc}") from exc


def _from_root(root: ET.Element) -> dict[str, Any]:
    sender = root.find("SENDER")
    club = sender.find("CLUB")  # type: ignore[union-attr]
    event = root.find("EVENT")
    event_data: dict[str, Any] = {
        "key": event.get("key"),  # type: ignore[union-attr]
        "kind": event.get("kind"),  # type: ignore[union-attr]
        "name": event.get("name"),  # type: ignore[union-attr]
        "date_from": event.get("date_from"),  # type: ignore[union-attr]
        "date_to": event.get("date_to"),  # type: ignore[union-attr]
        "ranking": event.get("ranking"),  # type: ignore[union-attr]
        "rules": _rules_back(event.find("RULES")),  # type: ignore[arg-type,union-attr]
        "season": event.get("season"),  # type: ignore[union-attr]
        "division": event.get("division"),  # type: ignore[union-attr]
    }
    version = root.get("version")
    return {
        "format": root.get("format"),
        "version": int(version) if version and version.isdigit() else version,
        "generated_at": root.get("generated_at"),
        "generator": root.get("generator"),
        "sender": {
            "site": sender.get("site"),  # type: ignore[union-attr]
            "club": {
                "slug": club.get("slug"),  # type: ignore[union-attr]
                "name": club.get("name"),  # type: ignore[union-attr]
                "federations": [
                    {"slug": f.get("slug"), "name": f.get("name")}
                    for f in club.findall("FEDERATION")  # type: ignore[union-attr]
                ],
            },
        },
        "event": event_data,
        "players": [
            {
                "id": p.get("id"),
                "name": p.get("name"),
                "numbers": [
                    {"federation": n.get("federation"), "number": n.text or ""}
                    for n in p.findall("NUMBER")
                ],
            }
            for p in root.iterfind("PLAYERS/PLAYER")
        ],
        "sides": [
            {
                "id": s.get("id"),
                "name": s.get("name"),
                "players": [m.get("player") for m in s.findall("MEMBER")],
            }
            for s in root.iterfind("SIDES/SIDE")
        ],
        "placings": [
            {"side": p.get("side"), "place": _int(p.get("place")), "score": _number(p.get("score"))}
            for p in root.iterfind("PLACINGS/PLACING")
        ],
        "games": [_game_back(g) for g in root.iterfind("GAMES/GAME")],
    }


def _game_back(game: ET.Element) -> dict[str, Any]:
    return {
        "id": game.get("id"),
        "date": game.get("date"),
        "round": _int(game.get("round")),
        "table": game.get("table"),
        "status": game.get("status"),
        "winner": game.get("winner"),
        "rules": _rules_back(game.find("RULES")),  # type: ignore[arg-type]
        "seats": [{"player": s.get("player"), "side": s.get("side")} for s in game.findall("SEAT")],
        "sides": [
            {"side": s.get("side"), "entrant": s.get("entrant"), "score": _number(s.get("score"))}
            for s in game.findall("SIDE")
        ],
        "deals": [
            {
                "number": _int(d.get("number")),
                "dealer": _int(d.get("dealer")),
                "outcome": d.get("outcome"),
                "maker": d.get("maker"),
                "data": json.loads(d.findtext("DATA") or "{}"),
                "scores": {s.get("side"): _number(s.get("value")) for s in d.findall("SCORE")},
            }
            for d in game.findall("DEAL")
        ],
    }
