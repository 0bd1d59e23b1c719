"""The rules engine's messages in the words of the table: sides and players by their names.

The engine (``clabber_league.rules``) is pure and knows sides only as ``A``/``B``/``C``,
players as seat numbers (``player 3``, counted from 0) and melds by their JSON path
(``melds.B[0]``). A scorer knows "Mules", "Mary-Lou" and "Tom's run of 3". This module
rewrites an engine message with the names of one game; the engine's text is untouched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language, gettext

from clabber_league.core.i18n import translated

MELD_PATH = re.compile(r"\bmelds\.([A-C])\[(\d+)\](?:\.\w+)?")
SIDE_WORD = re.compile(r"\b([Ss])ides? ([A-C])\b(?!\[)")
PLAYER_WORD = re.compile(r"\b([Pp])layer (\d+)\b")
TWO_PLAYERS = re.compile(r"\btwo players \((\d+), (\d+)\)")
SIDE_LIST = re.compile(r"\(([A-C](?:, [A-C])+)\)")
SIDE_LIST_END = re.compile(r"\bthe sides are ([A-C](?:, [A-C])*)\.")
NAMES_AFTER_COLON = re.compile(r"(but its melds name \d+: )([\d, ]+)\.")


@dataclass
class Names:
    """The names of one game: ``sides`` by letter, ``seats`` by seat number, and ``melds``
    by (side, index in that side's list) as the form sent them (``"Tom's run of 3"``)."""

    sides: Mapping[str, str]
    seats: Mapping[int, str]
    melds: Mapping[tuple[str, int], str] = field(default_factory=dict)

    def side(self, letter: str) -> str:
        return self.sides.get(letter) or " & ".join(
            name for seat, name in sorted(self.seats.items()) if self._seat_side(seat) == letter
        )

    def seat(self, number: str | int) -> str:
        try:
            return self.seats[int(number)]
        except (KeyError, ValueError):
            return f"player {number}"

    def _seat_side(self, seat: int) -> str:
        letters = sorted(self.sides) or ["A", "B"]
        return letters[seat % len(letters)]


def humane(message: str, names: Names) -> str:
    """``message`` with every side letter, seat number and meld path replaced by names.

    Names go in as placeholders until the end, so a name that looks like engine text (a
    player called "Player 7") is never rewritten again."""
    inserted: list[str] = []

    def put(text: str) -> str:
        inserted.append(text)
        return f"\x00{len(inserted) - 1}\x00"

    def meld(m: re.Match[str]) -> str:
        side, index = m.group(1), int(m.group(2))
        return put(names.melds.get((side, index)) or f"a meld of {names.side(side)}")

    def seats(numbers: str) -> str:
        return ", ".join(put(names.seat(n)) for n in numbers.split(", "))

    def sides(letters: str, joiner: str) -> str:
        return joiner.join(put(names.side(s)) for s in letters.split(", "))

    text = MELD_PATH.sub(meld, message)
    text = TWO_PLAYERS.sub(lambda m: f"two players ({seats(m.group(1) + ', ' + m.group(2))})", text)
    text = NAMES_AFTER_COLON.sub(lambda m: m.group(1) + seats(m.group(2)) + ".", text)
    text = PLAYER_WORD.sub(lambda m: put(names.seat(m.group(2))), text)
    text = SIDE_LIST.sub(lambda m: "(" + sides(m.group(1), " or ") + ")", text)
    text = SIDE_LIST_END.sub(lambda m: "the sides are " + sides(m.group(1), " and ") + ".", text)
    text = SIDE_WORD.sub(lambda m: put(names.side(m.group(2))), text)
    text = re.sub("\x00(\\d+)\x00", lambda m: inserted[int(m.group(1))], text)
    return text[:1].upper() + text[1:]


def humane_translated(message: Any, names: Names) -> str:
    """An engine message (``rules.errors.msg``) in the page's language with the table's names.

    In English (or where the catalog has no translation yet) it is :func:`humane`'s text.
    In another language the translated template is filled with the message's values, each
    side letter, seat number and meld path among them replaced by its name first (the
    English words around them, "side A", are the translation's own)."""
    template = getattr(message, "template", None)
    if template is None:
        return humane(translated(message), names)
    text = gettext(template)
    if text == template or (get_language() or "en").split("-")[0] == "en":
        return humane(str(message), names)
    params = {key: _named(key, value, names) for key, value in message.params.items()}
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return humane(str(message), names)


def _named(key: str, value: Any, names: Names) -> Any:
    """One value of an engine message with its side letters, seats and meld paths named."""
    if isinstance(value, str):
        if "side" in key and re.fullmatch(r"[A-C](, [A-C])*", value):
            return ", ".join(names.side(letter) for letter in value.split(", "))
        if MELD_PATH.search(value):
            return MELD_PATH.sub(
                lambda m: names.melds.get((m.group(1), int(m.group(2)))) or names.side(m.group(1)),
                value,
            )
        return value
    if key in ("player", "dealer", "seat") and isinstance(value, int) and value in names.seats:
        return names.seat(value)
    return value


# -- a game's result in words, wherever a person reads it ------------------------------------


def game_side_names(game: Any, *, to_member: bool = True) -> dict[str, str]:
    """Each side of ``game`` by name: its team's, else its players' ("Ann & Bob"), never
    its letter while anyone sits on it. Reads ``game.sides`` and ``game.seats`` (prefetch
    them with their team and player for a list)."""
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    names: dict[str, str] = {}
    for side in sorted(game.sides.all(), key=lambda s: s.side):
        players = " & ".join(
            s.player.shown_name(to_member=to_member) for s in seats if s.side == side.side
        )
        names[side.side] = side.team.name if side.team_id else players or side.side
    return names


def game_scores(game: Any, names: Mapping[str, str]) -> str:
    """ "Mules 479 · Dads 564": each side's name and score, in side order."""
    return " · ".join(f"{names.get(side, side)} {score}" for side, score in game.scores.items())


def winner_words(winner: str | None, names: Mapping[str, str]) -> str:
    """ "won by Bud Hartig", "a tied game", or "" while there is no winner: the same
    sentence for a team, a pair and one player (no verb to agree with the name)."""
    if not winner:
        return ""
    if winner == "tie":
        return gettext("a tied game")
    return gettext("won by %(name)s") % {"name": names.get(winner, winner)}
