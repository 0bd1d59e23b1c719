"""The ranking's reads: who may read a federation's ranking, its pages, a player's
history. Every query starts from the federation; each page is a fixed number of queries
whatever its size (the federation with its settings and the reader's office, the count,
the page's rows with their players)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import OuterRef
from django.http import Http404
from django.utils.translation import gettext as _

from clabber_league.federation.models import Federation, FederationPlayer, Officer

from .models import NationalRating, RankingSettings, RatingStep

PAGE_SIZE = 50
HISTORY_SIZE = 50


@dataclass(frozen=True)
class Reader:
    """A federation as one person reads it: whether they are its officer, and how its
    ranking shows private players."""

    federation: Federation
    officer: bool
    private: str
    admin: bool = False

    @property
    def hides_private(self) -> bool:
        return not self.officer and self.private == RankingSettings.Private.HIDE


def federation_reader(*, slug: str, user: Any) -> Reader:
    """The federation of the URL for ``user``, in one query; a federation that is not
    public is read by its officers only (404 for anyone else, as a private club)."""
    rows = Federation.objects.filter(slug=slug).annotate(
        private=RankingSettings.objects.filter(federation=OuterRef("pk")).values("private_players")[
            :1
        ]
    )
    if getattr(user, "is_authenticated", False):
        rows = rows.annotate(
            role=Officer.objects.filter(federation=OuterRef("pk"), user_id=user.pk).values("role")[
                :1
            ]
        )
    federation = rows.first()
    if federation is None:
        raise Http404(_("No such federation."))
    role = getattr(federation, "role", None)
    officer = role is not None
    if not federation.is_public and not officer:
        raise Http404(_("No such federation."))
    return Reader(
        federation,
        officer,
        federation.private or RankingSettings.Private.ANONYMISE,
        admin=role == Officer.Role.ADMIN,
    )


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


def home_section(access: Any) -> dict[str, Any]:
    """The federation home page's ranking section (``federation.sections``): the top ten
    as the caller may see them, two queries."""
    federation = access.federation
    settings = ranking_settings_of(federation)
    reader = Reader(
        federation,
        access.is_officer,
        settings.private_players,
        admin=access.is_admin,
    )
    rows = list(ranking_rows(reader)[:10])
    return {
        "lines": [ranking_line(reader, i + 1, row) for i, row in enumerate(rows)],
        "admin": reader.admin,
    }
