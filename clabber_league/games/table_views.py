"""Pages of table links: opening one (``/t/<token>/``), a game's printable table card, and
a club admin issuing a new link or revoking it (``games.table_links``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.privacy import sees_names

from . import selectors, table_links
from .models import Game
from .table_links import TableLinkError, page_grant

OPENED = "You score game {game} at table {table} with this phone: no account needed."
OPENED_UNNAMED = "You score game {game} with this phone: no account needed."
ISSUED = "A new table link for game {game}: the old card no longer works. Print the new one."
REVOKED = "The table link of game {game} is revoked: it no longer records deals."


def table_link_open(request: HttpRequest, token: str) -> HttpResponse:
    """A scanned table link: remember it in this phone's session and open the game's deal
    entry (its score sheet once the game is finished). A link that does not work says
    why, on a page of its own."""
    try:
        link = table_links.table_link_check(token)
    except TableLinkError as exc:
        return render(
            request,
            "games/table_link_refused.html",
            {"message": exc.errors[0]["message"]},
            status=403,
        )
    table_links.session_remember(request, link)
    game = link.game
    words = OPENED if link.table_label else OPENED_UNNAMED
    messages.info(request, words.format(game=game.pk, table=link.table_label))
    target = "games:deal-new" if game.status == Game.Status.IN_PROGRESS else "games:detail"
    return redirect(target, club_slug=game.club.slug, pk=game.pk)


def _game(request: HttpRequest, pk: int) -> Game:
    try:
        return selectors.game_get(club=request.club, pk=pk)
    except Game.DoesNotExist as exc:
        raise Http404("No such game in this club.") from exc


@club_view("score", table=page_grant)
def table_card(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's card to print (about A6): a large QR code of the game's table link, who
    sits where and who deals first."""
    game = _game(request, pk)
    link = table_links.table_link_ensure(game=game, user=request.user)
    to_member = sees_names(request.club_access)
    seats = [
        {"seat": s.seat + 1, "side": s.side, "name": s.player.shown_name(to_member=to_member)}
        for s in game.seats.all()
    ]
    first = next((s for s in seats if s["seat"] == game.first_dealer + 1), None)
    return render(
        request,
        "games/table_card.html",
        {
            "club": request.club,
            "access": request.club_access,
            "game": game,
            "link": link,
            "table_links": {game.pk: link} if link is not None else {},
            "seats": seats,
            "first_dealer": first,
            "history": list(game.table_links.all()[:20]),
        },
    )


@require_POST
@club_view("manage")
def table_link_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A club admin issues a new link for the game's table (the old one stops working)."""
    game = _game(request, pk)
    label = request.POST.get("table_label")
    try:
        table_links.table_link_issue(
            game=game, table_label=label if label is not None else None, user=request.user
        )
    except TableLinkError as exc:
        messages.error(request, exc.errors[0]["message"])
    else:
        messages.success(request, ISSUED.format(game=game.pk))
    return redirect("games:table-card", club_slug=request.club.slug, pk=game.pk)


@require_POST
@club_view("manage")
def table_link_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """A club admin stops the game's table link (a lost card, a finished evening)."""
    game = _game(request, pk)
    try:
        table_links.table_link_revoke(game=game, user=request.user)
    except TableLinkError as exc:
        messages.error(request, exc.errors[0]["message"])
    else:
        messages.success(request, REVOKED.format(game=game.pk))
    return redirect("games:table-card", club_slug=request.club.slug, pk=game.pk)
