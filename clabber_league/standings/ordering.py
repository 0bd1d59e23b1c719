"""The order of a table: match points first, then the league's tiebreakers in its order.

Pure Python over plain lines. Teams level on match points are split by the first
tiebreaker; those still level by the next, and so on, each tiebreaker looking only at
the teams still level (so head-to-head counts the matches between exactly those teams).
Teams level after every tiebreaker share the place and are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import TIEBREAKERS

TIEBREAKER_TITLES = {
    "match_points": _("Match points"),
    "head_to_head": _("Head-to-head"),
    "game_difference": _("Game difference"),
    "games_won": _("Games won"),
    "points_difference": _("Points difference"),
    "points_for": _("Points scored"),
    "sets_inflicted": _("Sets inflicted"),
    "sets_difference": _("Sets difference"),
    "fewest_sets_suffered": _("Fewest sets suffered"),
}

#: The same, as they read inside a sentence ("separated by ...", a row's "on ..."): their
#: own messages, so a language whose nouns keep their capital (German) keeps it.
TIEBREAKER_IN_SENTENCE = {
    "match_points": _("match points"),
    "head_to_head": _("head-to-head"),
    "game_difference": _("game difference"),
    "games_won": _("games won"),
    "points_difference": _("points difference"),
    "points_for": _("points scored"),
    "sets_inflicted": _("sets inflicted"),
    "sets_difference": _("sets difference"),
    "fewest_sets_suffered": _("fewest sets suffered"),
}


@dataclass
class Line:
    """One team's line of the table."""

    team_id: int
    name: str
    counters: dict[str, int]
    match_points: int = 0
    position: int = 0
    shared: bool = False
    placed_by: str = ""  # the criterion that last separated this team from teams level with it
    extra: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:  # the template reads counters as attributes
        counters = self.__dict__.get("counters") or {}
        if name in counters:
            return counters[name]
        raise AttributeError(name)

    @property
    def game_difference(self) -> int:
        return self.counters["games_won"] - self.counters["games_lost"]

    @property
    def points_difference(self) -> int:
        return self.counters["points_for"] - self.counters["points_against"]

    @property
    def sets_difference(self) -> int:
        return self.counters["sets_inflicted"] - self.counters["sets_suffered"]

    @property
    def placed_by_title(self) -> str:
        return TIEBREAKER_TITLES.get(self.placed_by, "")


def match_points(counters: Mapping[str, int], *, win: int, tie: int, loss: int) -> int:
    return (
        counters["matches_won"] * win
        + counters["matches_tied"] * tie
        + counters["matches_lost"] * loss
    )


def _key(
    criterion: str, line: Line, group: set[int], head_to_head: Mapping[tuple[int, int], int]
) -> int:
    c = line.counters
    if criterion == "match_points":
        return line.match_points
    if criterion == "head_to_head":
        return sum(head_to_head.get((line.team_id, other), 0) for other in group - {line.team_id})
    if criterion == "game_difference":
        return line.game_difference
    if criterion == "games_won":
        return c["games_won"]
    if criterion == "points_difference":
        return line.points_difference
    if criterion == "points_for":
        return c["points_for"]
    if criterion == "sets_inflicted":
        return c["sets_inflicted"]
    if criterion == "sets_difference":
        return line.sets_difference
    if criterion == "fewest_sets_suffered":
        return -c["sets_suffered"]
    raise ValueError(f"unknown tiebreaker {criterion!r}")


def _head_to_head_keys(
    group: list[Line], head_to_head: Mapping[tuple[int, int], int]
) -> dict[int, int]:
    """Each line's match points against the other teams of the group (``_key``'s
    head-to-head), from the pairs that played: not a look-up per two teams of the group,
    which a large group level on points (the start of a season) made quadratic."""
    ids = {line.team_id for line in group}
    against: dict[int, int] = dict.fromkeys(ids, 0)
    if len(head_to_head) < len(ids) * (len(ids) - 1):
        for (team, other), points in head_to_head.items():
            if team != other and team in ids and other in ids:
                against[team] += points
    else:
        for team in ids:
            against[team] = sum(head_to_head.get((team, other), 0) for other in ids - {team})
    return {id(line): against[line.team_id] for line in group}


def _blocks(
    group: list[Line], criteria: Sequence[str], head_to_head: Mapping[tuple[int, int], int]
) -> list[list[Line]]:
    """The group split into blocks of teams level on every criterion, best block first."""
    if len(group) == 1:
        return [group]
    if not criteria:
        return [sorted(group, key=lambda line: (line.name.casefold(), line.team_id))]
    criterion, rest = criteria[0], criteria[1:]
    if criterion == "head_to_head":
        keys = _head_to_head_keys(group, head_to_head)
    else:
        keys = {id(line): _key(criterion, line, set(), head_to_head) for line in group}
    keyed = sorted(group, key=lambda line: -keys[id(line)])
    parts = [list(part) for _, part in groupby(keyed, key=lambda line: keys[id(line)])]
    if len(parts) > 1 and criterion != "match_points":
        for line in group:
            line.placed_by = criterion
    out: list[list[Line]] = []
    for part in parts:
        out.extend(_blocks(part, rest, head_to_head))
    return out


def order_lines(
    lines: Iterable[Line],
    tiebreakers: Sequence[str],
    head_to_head: Mapping[tuple[int, int], int] | None = None,
) -> list[Line]:
    """The table in order, with positions; teams level on everything share a position.

    ``head_to_head[(team, opponent)]`` is the match points ``team`` took from its matches
    against ``opponent``.
    """
    criteria = ["match_points", *[t for t in tiebreakers if t in TIEBREAKERS]]
    ordered: list[Line] = []
    for block in _blocks(list(lines), criteria, head_to_head or {}):
        position = len(ordered) + 1
        for line in block:
            line.position = position
            line.shared = len(block) > 1
            ordered.append(line)
    return ordered


def explain(tiebreakers: Sequence[str], *, win: int, tie: int, loss: int) -> list[str]:
    """How the table is ordered, in plain words, one sentence a step."""
    steps = [
        gettext(
            "Teams are ranked by match points: {win} for a match won, {tie} for a match tied, "
            "{loss} for a match lost."
        ).format(win=win, tie=tie, loss=loss)
    ]
    known = [t for t in tiebreakers if t in TIEBREAKERS]
    for number, name in enumerate(known, start=1):
        lead = (
            gettext("Teams level on match points are separated by {tiebreaker}: {how}.")
            if number == 1
            else gettext("Then by {tiebreaker}: {how}.")
        )
        steps.append(lead.format(tiebreaker=TIEBREAKER_IN_SENTENCE[name], how=TIEBREAKERS[name]))
    if "head_to_head" in known:
        steps.append(
            gettext(
                "Head-to-head looks only at the teams still level at that step, "
                "and only at matches between two teams."
            )
        )
    steps.append(gettext("Teams still level after that share the place and are listed by name."))
    return steps
