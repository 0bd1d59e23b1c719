"""The pages a club night shows the room: the display, the draw on the wall, the table
cards, the prize list, the season of nights and a player's nights.

Anyone may read them in a public club (``club_view("read")``), except the table cards:
their QR codes open a table's deal entry, so only club admins print them. The room
display polls a fragment of itself with htmx (every 10 seconds while the night is on),
so a TV shows each deal soon after it is entered, without a full reload.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.privacy import sees_names

from . import selectors
from .models import Event
from .prizes import money
from .ranking import ranking_rule

#: How often the room display asks for news, in seconds.
DISPLAY_POLL_SECONDS = 10


def _to_member(request: HttpRequest) -> bool:
    return sees_names(request.club_access)


def _rule(event: Event) -> str:
    """The night's ranking rule as the page explains it: method, sit-out, tiebreaks."""
    return ranking_rule(event.ranking, event.sit_out_rule, event.sit_out_score, translate=gettext)


def _base(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    return {"club": request.club, "access": request.club_access, **extra}


def _display_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    state = selectors.display_state(event, to_member=_to_member(request))
    return _base(
        request,
        event=event,
        state=state,
        polling=event.status != Event.Status.FINISHED,
        poll_seconds=DISPLAY_POLL_SECONDS,
        ranking_rule=_rule(event),
    )


@club_view("read")
def event_display(request: HttpRequest, pk: int) -> HttpResponse:
    """The room display: large type for a TV, the current round and the live ranking."""
    event = selectors.event_get(club=request.club, pk=pk)
    return render(request, "events/display.html", _display_context(request, event))


@club_view("read")
def event_display_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The display's fragment that htmx swaps in every few seconds."""
    event = selectors.event_get(club=request.club, pk=pk)
    return render(request, "events/display_live.html", _display_context(request, event))


@club_view("read")
def round_draw(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's draw for the wall: everyone by name with their table and seat."""
    event = selectors.event_get(club=request.club, pk=pk)
    round_ = selectors.round_get(event=event, number=number)
    view = selectors.round_view(round_, to_member=_to_member(request))
    return render(
        request,
        "events/cards_draw.html",
        _base(request, event=event, round=round_, view=view, lines=selectors.wall_draw(view)),
    )


@club_view("manage")
def round_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One printable card per table of a round: who sits where, who deals first, and the
    QR code of the table's link into its deal entry."""
    event = selectors.event_get(club=request.club, pk=pk)
    round_ = selectors.round_get(event=event, number=number)
    view = selectors.round_view(round_, to_member=True)
    context = _base(request, event=event, round=round_, view=view)
    context.update(_table_links(request, view))
    return render(request, "events/cards.html", context)


def _table_links(request: HttpRequest, view: selectors.RoundView) -> dict[str, Any]:
    """Each open table's QR code into its deal entry (issue 14's table links), made for
    the whole round in one go: ``{"qr": {table id: svg}}``.

    TABLE LINKS: until ``games.table_links`` is on main the cards link to the game's deal
    page instead (``qr`` empty)."""
    games = [t.game for t in view.tables if t.game is not None and t.status != "finished"]
    try:
        from clabber_league.games import table_links
        from clabber_league.games.templatetags.tables import qr_svg
    except ImportError:  # pragma: no cover - until issue 14's table links are on main
        return {"qr": {}}
    links = table_links.table_links_ensure(games=games, user=request.user)
    qr = {}
    for t in view.tables:
        link = links.get(t.table.game_id) if t.table.game_id else None
        if link is not None and t.status != "finished":
            url = table_links.table_link_url(link, request=request)
            label = gettext("Table {number}: scan to enter this table's deals").format(
                number=t.table.number
            )
            qr[t.table.pk] = {"svg": qr_svg(url, label, scale=8), "url": url}
    return {"qr": qr}


@club_view("read")
def event_prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's results: the ranking with its tiebreaks, the takings and the prizes."""
    event = selectors.event_get(club=request.club, pk=pk)
    result = selectors.event_money(event, to_member=_to_member(request))
    awards = result.prize_list.by_player
    return render(
        request,
        "events/prizes.html",
        _base(
            request,
            event=event,
            result=result,
            lines=[(line, awards.get(line.player)) for line in result.ranking.lines],
            ranking_rule=_rule(event),
            money=money,
        ),
    )


@club_view("read")
def series_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "events/series_list.html",
        _base(request, series_list=selectors.series_list(club=request.club)[:100]),
    )


@club_view("read")
def series_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A season of nights' ranking."""
    series = selectors.series_get(club=request.club, pk=pk)
    view = selectors.series_view(series, to_member=_to_member(request))
    return render(request, "events/series.html", _base(request, series=series, view=view))


@club_view("read")
def player_nights(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's club nights, newest first, twenty a page."""
    player = selectors.player_get(club=request.club, pk=pk)
    try:
        page = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        page = 1
    nights, more = selectors.player_nights(club=request.club, player=player, page=page)
    return render(
        request,
        "events/series_player.html",
        _base(request, player=player, nights=nights, page=page, more=more),
    )


@club_view("read")
def draw_check_guide(request: HttpRequest) -> HttpResponse:
    """How anyone checks a night's draw (and a cup's random seeding) from the published
    seeds: the commitment, the seed, and drawing the round again."""
    from .draw import ALGORITHM

    return render(request, "events/draw_check.html", _base(request, algorithm=ALGORITHM))
