"""A championship: member clubs' qualifiers feeding a final in the federation's organiser
space (issue 34).

A **qualifier** is one of a member club's competitions:

* a **cup**, finished: its champion goes through (a team, or a player);
* a **club night**, finished and played by individuals: its top ``places`` players go
  through, in the night's own order (points, then its tiebreaks: rounds won,
  head-to-head, best round);
* a **series** of club nights (best N of M, total or average), every night finished: its
  top ``places`` ranked players go through, in the series' order (score, then nights
  played, then best night).

The final is a cup of the space, seeded in the qualifiers' order, then by the place
within a qualifier: the first qualifier's winner is seed 1, its runner-up (if it sends
two) seed 2, then the second qualifier's winner, and so on. Each player is mirrored in the
space (``interclub.space_player``: "Name (number)", linked to the same federation number),
a winning team as an inter-club team of the final's division. Where each entrant came from
is kept (:class:`models.QualifiedEntrant`) and shown on the final's page.

Refused, one error per problem and nothing written: a qualifier of a club that is not an
active member, one not finished, one given twice or already feeding a final, a places
count out of range or cutting through players the tiebreaks leave level, a player with no
approved federation number (each one named), a person qualifying twice (each one named),
and teams mixed with players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_noop

from clabber_league.clubs.models import Club, Player
from clabber_league.cups.models import Cup
from clabber_league.cups.services.setup import cup_create
from clabber_league.events import selectors as event_selectors
from clabber_league.events.models import Event, Series
from clabber_league.federation.models import Federation, FederationClub, PlayerLink
from clabber_league.leagues.models import Division
from clabber_league.rules.errors import msg, ngettext

from .interclub import (
    NOT_SPACE,
    QUALIFIER_OPEN,
    QUALIFIER_OTHER,
    QUALIFIERS_FEW,
    InterclubError,
    interclub_team_register,
    space_player,
)
from .models import OrganiserSpace, QualifiedEntrant, Qualifier

#: The most players one night or series sends to a final, and qualifiers in one final.
MAX_PLACES = 64
MAX_QUALIFIERS = 64

NIGHT_OTHER = gettext_noop("The club night {name} is not a night of a member club.")
SERIES_OTHER = gettext_noop("The series {name} is not a series of a member club.")
NIGHT_OPEN = gettext_noop("The club night {name} is not finished yet.")
SERIES_OPEN = gettext_noop("The series {name} has nights that are not finished yet.")
SERIES_EMPTY = gettext_noop("The series {name} has no nights.")
NIGHT_PAIRS = gettext_noop(
    "The club night {name} was played in fixed pairs: only a night of individuals sends "
    "players to a final."
)
PLACES_RANGE = gettext_noop("{name}: send between 1 and {most} players.")
PLACES_CUP = gettext_noop("A cup sends its winner only: {name} sends 1.")
CUT_SHARED = gettext_noop(
    "{players} share place {place} of {name}, level after every tiebreak: send fewer or "
    "more players so that the cut does not split them."
)
QUALIFIER_TAKEN = gettext_noop("{name} already qualifies for the final {final}.")
QUALIFIER_TWICE = gettext_noop("{name} is given twice.")
QUALIFIERS_MANY = gettext_noop("A final takes at most {most} qualifiers.")
KINDS_MIXED = gettext_noop(
    "A final is of teams or of players: a cup of teams cannot qualify with club nights or "
    "cups of players."
)
PLAYER_UNLINKED = gettext_noop(
    "{player}, qualified from {name}, has no federation number: link them before the "
    "final is seeded."
)
PLAYER_TWICE = gettext_noop("{player} qualifies twice: from {first} and from {second}.")


@dataclass(frozen=True)
class QualifierIn:
    """One qualifier as a caller gives it: a cup, a club night (``Event``) or a series,
    and how many of its top players go through (a cup: its winner, 1)."""

    source: Cup | Event | Series
    places: int = 1

    @property
    def kind(self) -> str:
        return source_kind(self.source)


def source_kind(source: Cup | Event | Series) -> str:
    if isinstance(source, Cup):
        return "cup"
    if isinstance(source, Event):
        return "night"
    return "series"


@dataclass
class _Through:
    """One qualifier's entrants, in order: (club player id, place) or a team's cup."""

    qualifier: QualifierIn
    index: int
    players: list[tuple[int, int]]  # (the club's player id, place within the qualifier)
    team_cup: Cup | None = None


def _as_in(qualifiers: Sequence[Any]) -> list[QualifierIn]:
    return [q if isinstance(q, QualifierIn) else QualifierIn(q) for q in qualifiers]


def _already_taken(qualifiers: Sequence[QualifierIn]) -> dict[tuple[str, int], str]:
    """The qualifiers that feed a final already, with that final's name (one query)."""
    ids: dict[str, list[int]] = {"cup": [], "night": [], "series": []}
    for q in qualifiers:
        ids[q.kind].append(q.source.pk)
    rows = Qualifier.objects.filter(
        Q(cup_id__in=ids["cup"]) | Q(event_id__in=ids["night"]) | Q(series_id__in=ids["series"])
    ).values_list("cup_id", "event_id", "series_id", "final__name")
    taken = {}
    for cup_id, event_id, series_id, final in rows:
        if cup_id:
            taken[("cup", cup_id)] = final
        elif event_id:
            taken[("night", event_id)] = final
        else:
            taken[("series", series_id)] = final
    return taken


def _ranked(q: QualifierIn, index: int, errors: list[dict[str, str]]) -> _Through | None:
    """The top ``places`` of a finished night or series (None, and errors, when it cannot
    send them)."""
    source = q.source
    field = f"qualifiers[{index}]"
    if isinstance(source, Event):
        if source.status != Event.Status.FINISHED:
            errors.append({"field": field, "message": msg(NIGHT_OPEN, name=source.name)})
            return None
        if source.format == Event.Format.PAIRS:
            errors.append({"field": field, "message": msg(NIGHT_PAIRS, name=source.name)})
            return None
        lines = [
            (line.player, line.name, line.position)
            for line in event_selectors.event_ranking(source, to_member=True).lines
        ]
    else:
        nights = event_selectors.series_events(source)
        if not nights:
            errors.append({"field": field, "message": msg(SERIES_EMPTY, name=source.name)})
            return None
        if any(night.status != Event.Status.FINISHED for night in nights):
            errors.append({"field": field, "message": msg(SERIES_OPEN, name=source.name)})
            return None
        ranking = event_selectors.series_view(source, to_member=True).ranking
        lines = [(line.player, line.name, line.position) for line in ranking.ranked]
    places = q.places
    if len(lines) < places:
        errors.append(
            {
                "field": f"{field}.places",
                "message": ngettext(
                    "{name} ranked {count} player: it cannot send {places}.",
                    "{name} ranked {count} players: it cannot send {places}.",
                    len(lines),
                    name=source.name,
                    count=len(lines),
                    places=places,
                ),
            }
        )
        return None
    if len(lines) > places and lines[places - 1][2] == lines[places][2]:
        place = lines[places][2]
        level = [name for _player, name, position in lines if position == place]
        errors.append(
            {
                "field": f"{field}.places",
                "message": msg(CUT_SHARED, players=", ".join(level), place=place, name=source.name),
            }
        )
        return None
    return _Through(q, index, [(player, position) for player, _n, position in lines[:places]])


def _check_sources(
    qualifiers: Sequence[QualifierIn], members: set[int], errors: list[dict[str, str]]
) -> list[_Through]:
    """Each qualifier's own checks; what the valid ones send through."""
    taken = _already_taken(qualifiers)
    seen: set[tuple[str, int]] = set()
    through = []
    for index, q in enumerate(qualifiers):
        source, field = q.source, f"qualifiers[{index}]"
        key = (q.kind, source.pk)
        if key in seen:
            errors.append({"field": field, "message": msg(QUALIFIER_TWICE, name=source.name)})
            continue
        seen.add(key)
        if key in taken:
            errors.append(
                {
                    "field": field,
                    "message": msg(QUALIFIER_TAKEN, name=source.name, final=taken[key]),
                }
            )
            continue
        if source.club_id not in members:
            other = {"cup": QUALIFIER_OTHER, "night": NIGHT_OTHER, "series": SERIES_OTHER}
            errors.append({"field": field, "message": msg(other[q.kind], name=source.name)})
            continue
        if isinstance(source, Cup):
            if q.places != 1:
                errors.append(
                    {"field": f"{field}.places", "message": msg(PLACES_CUP, name=source.name)}
                )
            elif source.champion_id is None:
                errors.append({"field": field, "message": msg(QUALIFIER_OPEN, name=source.name)})
            elif source.champion.team_id is not None:
                through.append(_Through(q, index, [], team_cup=source))
            else:
                through.append(_Through(q, index, [(source.champion.player_id, 1)]))
            continue
        if isinstance(q.places, bool) or not isinstance(q.places, int):
            places_ok = False
        else:
            places_ok = 1 <= q.places <= MAX_PLACES
        if not places_ok:
            errors.append(
                {
                    "field": f"{field}.places",
                    "message": msg(PLACES_RANGE, name=source.name, most=MAX_PLACES),
                }
            )
            continue
        ranked = _ranked(q, index, errors)
        if ranked is not None:
            through.append(ranked)
    return through


def _check_people(
    federation: Federation, through: Sequence[_Through], errors: list[dict[str, str]]
) -> dict[int, Any]:
    """Every player going through has an approved federation number, and no person goes
    through twice. The numbers by club player id."""
    wanted: list[tuple[_Through, int]] = []
    for t in through:
        if t.team_cup is not None:
            team = t.team_cup.champion.team
            wanted += [(t, m.player_id) for m in team.members.order_by("position")]
        else:
            wanted += [(t, player) for player, _place in t.players]
    links = {
        link.player_id: link
        for link in PlayerLink.objects.filter(
            federation=federation,
            status=PlayerLink.Status.APPROVED,
            player_id__in=[player for _t, player in wanted],
        ).select_related("player", "federation_player__merged_into")
    }
    names = dict(Player.objects.filter(pk__in=[p for _t, p in wanted]).values_list("pk", "name"))
    numbers: dict[int, Any] = {}
    first_from: dict[int, _Through] = {}
    for t, player in wanted:
        field = f"qualifiers[{t.index}]"
        source = t.qualifier.source
        link = links.get(player)
        if link is None:
            unlinked = msg(PLAYER_UNLINKED, player=names.get(player, "?"), name=source.name)
            errors.append({"field": field, "message": unlinked})
            continue
        person = link.federation_player
        while person.merged_into_id is not None:  # a retired number leads to the kept one
            person = person.merged_into
        earlier = first_from.get(person.pk)
        if earlier is not None:
            errors.append(
                {
                    "field": field,
                    "message": msg(
                        PLAYER_TWICE,
                        player=f"{person.name} ({person.number})",
                        first=earlier.qualifier.source.name,
                        second=source.name,
                    ),
                }
            )
            continue
        first_from[person.pk] = t
        numbers[player] = person
    return numbers


@transaction.atomic
def championship_final_create(
    *,
    federation: Federation,
    name: str,
    qualifiers: Sequence[QualifierIn | Cup | Event | Series],
    division: Division | None = None,
    rules: Any = None,
    format: str = Cup.Format.SINGLE,
    best_of: int = 1,
    user: Any = None,
) -> Cup:
    """The federation's final, a cup of its organiser space seeded from the qualifiers in
    the order given, then by the place within each (see the module's docstring).
    Qualifiers of teams need ``division``: the space's division their winners are
    registered in. A bare cup, night or series sends 1."""
    qualifiers = _as_in(qualifiers)
    space = OrganiserSpace.objects.filter(federation=federation).first()
    members = set(
        FederationClub.objects.filter(federation=federation, active=True).values_list(
            "club_id", flat=True
        )
    )
    errors: list[dict[str, str]] = []
    if len(qualifiers) < 2:
        errors.append({"field": "qualifiers", "message": QUALIFIERS_FEW})
    if len(qualifiers) > MAX_QUALIFIERS:
        raise InterclubError.one("qualifiers", msg(QUALIFIERS_MANY, most=MAX_QUALIFIERS))
    through = _check_sources(qualifiers, members, errors)
    teams = any(t.team_cup is not None for t in through)
    if teams and any(t.team_cup is None for t in through):
        errors.append({"field": "qualifiers", "message": KINDS_MIXED})
    elif teams and (space is None or division is None or division.club_id != space.club_id):
        errors.append({"field": "division", "message": NOT_SPACE})
    if space is None and not errors:
        errors.append({"field": "federation", "message": NOT_SPACE})
    numbers = _check_people(federation, through, errors)
    if errors:
        raise InterclubError(errors)

    entrants_teams, entrants_players = [], []
    for t in through:
        if t.team_cup is not None:
            cup = t.team_cup
            champion = cup.champion
            team_players = [m.player_id for m in champion.team.members.order_by("position")]
            entrants_teams.append(
                interclub_team_register(
                    federation=federation,
                    division=division,
                    name=f"{champion.name} ({_club_name(cup.club_id)})"[:120],
                    home_club=cup.club,
                    players=[numbers[p] for p in team_players],
                )
            )
        else:
            entrants_players += [space_player(space=space, player=numbers[p]) for p, _ in t.players]
    final = cup_create(
        club=space.club,
        name=name,
        rules=rules if rules is not None else (division.rules_spec() if division else None),
        entrant_kind=Cup.Kind.TEAMS if teams else Cup.Kind.PLAYERS,
        format=format,
        best_of=best_of,
        seeding=Cup.Seeding.LIST,
        teams=entrants_teams,
        players=entrants_players,
        user=user,
    )
    # Teams and players never mix in one final: one id space.
    rows = {e.team_id or e.player_id: e for e in final.entrants.all()}
    things = iter(entrants_teams if teams else entrants_players)
    origins = []
    for order, t in enumerate(through):
        qualifier = Qualifier.objects.create(
            final=final,
            order=order,
            places=t.qualifier.places,
            **{
                {"cup": "cup", "night": "event", "series": "series"}[t.qualifier.kind]: (
                    t.qualifier.source
                )
            },
        )
        for _player, place in t.players or [(None, 1)]:
            origins.append(
                QualifiedEntrant(qualifier=qualifier, entrant=rows[next(things).pk], place=place)
            )
    QualifiedEntrant.objects.bulk_create(origins)
    return final


def _club_name(club_id: int) -> str:
    return Club.objects.values_list("name", flat=True).get(pk=club_id)
