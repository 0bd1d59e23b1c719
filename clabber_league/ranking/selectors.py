"""The ranking's reads: who may read a federation's ranking, its pages, a player's
history. Every query starts from the federation; each page is a fixed number of queries
whatever its size (the federation, the reader's office, its settings, the count, the
page's rows with their players)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import Http404
from django.utils.translation import gettext as _

from clabber_league.cups.models import Cup, Entrant
from clabber_league.events.models import Event, Series
from clabber_league.federation.access import FederationAccess, federation_access
from clabber_league.federation.models import Federation, FederationClub, FederationPlayer

from .models import NationalRating, RankingSettings, RatingStep

PAGE_SIZE = 50
HISTORY_SIZE = 50


@dataclass(frozen=True)
class Reader:
    """A federation as one person reads it: their access to it (``federation.access``,
    the one rule for who may read a federation's private data and who is its officer),
    and how its ranking shows private players."""

    access: FederationAccess
    private: str

    @property
    def federation(self) -> Federation:
        return self.access.federation

    @property
    def officer(self) -> bool:
        return self.access.is_officer

    @property
    def admin(self) -> bool:
        return self.access.is_admin

    @property
    def hides_private(self) -> bool:
        return not self.officer and self.private == RankingSettings.Private.HIDE


def federation_reader(*, slug: str, user: Any) -> Reader:
    """The federation of the URL for ``user``, as ``federation.access`` opens it (a
    federation that is not public is read by its officers and site staff only: 404 for
    anyone else, as a private club), with its ranking's rule for private players."""
    access = federation_access(slug=slug, user=user)
    private = (
        RankingSettings.objects.filter(federation=access.federation)
        .values_list("private_players", flat=True)
        .first()
    )
    return Reader(access, private or RankingSettings.Private.ANONYMISE)


def ranking_settings_of(federation: Federation) -> RankingSettings:
    """The federation's ranking settings, or the defaults (unsaved) when it has none: a
    read writes nothing."""
    found = RankingSettings.objects.filter(federation=federation).first()
    return found or RankingSettings(federation=federation)


def shown(reader: Reader, player: FederationPlayer) -> bool:
    """Whether the reader sees the player's name, number and history."""
    return reader.officer or (player.is_public and player.erased_at is None)


@dataclass(frozen=True)
class Line:
    position: int
    name: str
    number: str
    rating: float
    mu: float
    sigma: float
    events: int
    points: int
    last_event_on: Any
    named: bool


def ranking_rows(reader: Reader):
    """The ranking's queryset, best first: hidden private players left out when the
    federation hides them."""
    rows = NationalRating.objects.filter(federation=reader.federation)
    if reader.hides_private:
        rows = rows.filter(player__is_public=True, player__erased_at__isnull=True)
    return rows.select_related("player").order_by("-ordinal", "id")


def ranking_line(reader: Reader, position: int, row: NationalRating) -> Line:
    named = shown(reader, row.player)
    return Line(
        position=position,
        name=row.player.name if named else _("Private player"),
        number=row.player.number if named else "",
        rating=row.ordinal,
        mu=row.mu,
        sigma=row.sigma,
        events=row.events,
        points=row.points,
        last_event_on=row.last_event_on,
        named=named,
    )


def ranking_page(reader: Reader, page: Any = 1, size: int = PAGE_SIZE) -> tuple[Page, list[Line]]:
    """One page of the ranking (a page out of range is the last), its lines numbered by
    place: two queries."""
    paginator = Paginator(ranking_rows(reader), size)
    current = paginator.get_page(page)
    start = current.start_index()
    return current, [
        ranking_line(reader, start + i, row) for i, row in enumerate(current.object_list)
    ]


def player_history(
    reader: Reader, *, number: str, page: Any = 1, size: int = HISTORY_SIZE
) -> tuple[FederationPlayer, NationalRating | None, Page]:
    """A player's rating and their history, latest first, one row an event: 404 for a
    number the reader may not see (a private player, to anyone but an officer)."""
    player = (
        FederationPlayer.objects.filter(federation=reader.federation, number=number)
        .select_related("home_club")
        .first()
    )
    if player is None or not shown(reader, player):
        raise Http404(_("No such player in this ranking."))
    rating = NationalRating.objects.filter(federation=reader.federation, player=player).first()
    steps = (
        RatingStep.objects.filter(federation=reader.federation, player=player)
        .select_related("event")
        .order_by("-event__date", "-id")
    )
    return player, rating, Paginator(steps, size).get_page(page)


def home_section(access: FederationAccess) -> dict[str, Any]:
    """The federation home page's ranking section (``federation.sections``): the top ten
    as the caller may see them, two queries."""
    reader = Reader(access, ranking_settings_of(access.federation).private_players)
    rows = list(ranking_rows(reader)[:10])
    return {
        "lines": [ranking_line(reader, i + 1, row) for i, row in enumerate(rows)],
        "admin": reader.admin,
    }


# --- championships (championship.py) ------------------------------------------------------

#: The most candidates of each kind the final's form offers (the newest first).
QUALIFIER_CHOICES = 200


@dataclass(frozen=True)
class Origin:
    """One entrant of a final and where it qualified from."""

    seed: int
    name: str
    place: int | None  # its place in the qualifier (None: not recorded)
    kind: str  # "cup", "night", "series" or "" when not recorded
    source: str
    source_id: int | None
    club: str
    club_slug: str


def _member_club_ids(federation: Federation) -> list[int]:
    return list(
        FederationClub.objects.filter(federation=federation, active=True).values_list(
            "club_id", flat=True
        )
    )


def championship_finals(federation: Federation) -> list[Any]:
    """The federation's championship finals (cups of its organiser space fed by
    qualifiers), newest first; one query."""
    return list(
        Cup.objects.filter(club__organised_by__federation=federation, qualifiers__isnull=False)
        .distinct()
        .select_related("club")
        .order_by("-created_at", "-id")[:50]
    )


def championships_section(access: Any) -> dict[str, Any]:
    """The federation home page's championships section: its finals, one query."""
    return {
        "finals": championship_finals(access.federation)[:10],
        "admin": access.is_admin,
    }


def championship_final(federation: Federation, pk: Any) -> tuple[Any, list[Origin]]:
    """A final of the federation and its entrants by seed, each with where it qualified
    from (404 for anything else); two queries."""
    final = None
    if str(pk).isdigit():
        final = (
            Cup.objects.filter(
                pk=int(pk), club__organised_by__federation=federation, qualifiers__isnull=False
            )
            .select_related("club")
            .distinct()
            .first()
        )
    if final is None:
        raise Http404(_("No such final in this federation."))
    entrants = Entrant.objects.filter(cup=final).select_related(
        "qualified_from__qualifier__cup__club",
        "qualified_from__qualifier__event__club",
        "qualified_from__qualifier__series__club",
    )
    origins = []
    for entrant in entrants.order_by("seed"):
        origin = getattr(entrant, "qualified_from", None)
        if origin is None:
            origins.append(Origin(entrant.seed, entrant.name, None, "", "", None, "", ""))
            continue
        q = origin.qualifier
        source = q.source
        kind = "cup" if q.cup_id else "night" if q.event_id else "series"
        origins.append(
            Origin(
                entrant.seed,
                entrant.name,
                origin.place,
                kind,
                source.name,
                source.pk,
                source.club.name,
                source.club.slug,
            )
        )
    return final, origins


def qualifier_source(federation: Federation, kind: str, pk: Any) -> Any:
    """A member club's cup, club night or series by id (None when it is not one)."""
    model = {"cup": Cup, "night": Event, "series": Series}.get(kind)
    if model is None or not str(pk).isdigit():
        return None
    return (
        model.objects.filter(pk=int(pk), club_id__in=_member_club_ids(federation))
        .select_related("club")
        .first()
    )


def qualifier_candidates(federation: Federation) -> list[tuple[str, str, str]]:
    """What may qualify, for the final's form: ``(value, kind, label)``: member clubs'
    cups with a champion, finished nights and series, the newest first, not already
    feeding a final; four queries."""
    clubs = _member_club_ids(federation)
    out: list[tuple[str, str, str]] = []
    cups = (
        Cup.objects.filter(club_id__in=clubs, champion__isnull=False, qualifies_for__isnull=True)
        .select_related("club")
        .order_by("-created_at", "-id")[:QUALIFIER_CHOICES]
    )
    out += [(f"cup:{c.pk}", "cup", f"{c.name} ({c.club.name})") for c in cups]
    nights = (
        Event.objects.filter(
            club_id__in=clubs,
            status=Event.Status.FINISHED,
            format=Event.Format.INDIVIDUAL,
            qualifies_for__isnull=True,
        )
        .select_related("club")
        .order_by("-date", "-id")[:QUALIFIER_CHOICES]
    )
    out += [
        (f"night:{e.pk}", "night", f"{e.name}, {e.date:%Y-%m-%d} ({e.club.name})") for e in nights
    ]
    series = (
        Series.objects.filter(club_id__in=clubs, qualifies_for__isnull=True)
        .select_related("club")
        .order_by("-created_at", "-id")[:QUALIFIER_CHOICES]
    )
    out += [(f"series:{s.pk}", "series", f"{s.name} ({s.club.name})") for s in series]
    return out
