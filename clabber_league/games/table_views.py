"""Pages of table links: opening one (``/t/<token>/``), a game's printable table card, and
a club admin issuing a new link or revoking it (``games.table_links``)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_POST

from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.privacy import sees_names
from clabber_league.core.i18n import translated
from clabber_league.rules import get_ruleset
from clabber_league.scheduling.models import Fixture

from . import adapters, selectors, services, table_links
from .models import Game
from .table_links import TableLinkError, page_grant

OPENED = gettext_noop("You score game {game} at table {table} with this phone: no account needed.")
OPENED_UNNAMED = gettext_noop("You score game {game} with this phone: no account needed.")
ISSUED = gettext_noop(
    "A new table link for game {game}: the old card no longer works. Print the new one."
)
REVOKED = gettext_noop("The table link of game {game} is revoked: it no longer records deals.")
STARTED = gettext_noop("Game started at table {table}. Enter the first deal: no account needed.")
FIXTURE_ISSUED = gettext_noop("A new table link for this fixture: the old card no longer works.")
FIXTURE_REVOKED = gettext_noop("The fixture's table link is revoked: it starts no game.")


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
            {"message": translated(exc.errors[0]["message"])},
            status=403,
        )
    if link.game_id is None:  # a fixture's link, its game not started yet
        return redirect("table-link-start", token=token)
    table_links.session_remember(request, link)
    game = link.game
    if game.status == Game.Status.IN_PROGRESS:  # a finished game: its acceptance screen
        words = OPENED if link.table_label else OPENED_UNNAMED
        messages.info(request, gettext(words).format(game=game.pk, table=link.table_label))
    target = {
        Game.Status.IN_PROGRESS: "games:deal-new",
        Game.Status.FINISHED: "members:handover",  # the sides' acceptance screen
    }.get(game.status, "games:detail")
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
    _link_change(
        request,
        lambda: table_links.table_link_issue(game=game, table_label=label, user=request.user),
        gettext(ISSUED).format(game=game.pk),
    )
    return redirect("games:table-card", club_slug=request.club.slug, pk=game.pk)


def _link_change(request: HttpRequest, change: Callable[[], object], done: str) -> None:
    """Issue or revoke a link: ``done`` when it worked, else the refusal's own message."""
    try:
        change()
    except TableLinkError as exc:
        messages.error(request, translated(exc.errors[0]["message"]))
    else:
        messages.success(request, translated(done))


@require_POST
@club_view("manage")
def table_link_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """A club admin stops the game's table link (a lost card, a finished evening)."""
    game = _game(request, pk)
    _link_change(
        request,
        lambda: table_links.table_link_revoke(game=game, user=request.user),
        gettext(REVOKED).format(game=game.pk),
    )
    return redirect("games:table-card", club_slug=request.club.slug, pk=game.pk)


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "games/table_link_refused.html", {"message": message}, status=403)


def table_link_start(request: HttpRequest, token: str) -> HttpResponse:
    """A fixture's table link scanned before its game started: the phone at the table
    starts that fixture's game (its two teams; who sits where and who deals first), with
    no account, then scores it as the game's link. Once the game is started (here or on a
    scorer's page) the link opens its deal entry."""
    from .views import SeatsForm  # the New game page's form

    try:
        link = table_links.table_link_check(token)
    except TableLinkError as exc:
        return _refused(request, translated(exc.errors[0]["message"]))
    if link.game_id is not None:
        return redirect("table-link", token=token)
    fixture = link.fixture
    division = fixture.division
    ruleset = get_ruleset(services.fixture_rules_spec(fixture))
    sides = {"A": fixture.home, "B": fixture.away}
    rosters = {s: selectors.team_roster(team=t) for s, t in sides.items()}
    form = SeatsForm(
        request.POST or None, club=fixture.club, ruleset=ruleset, sides=sides, rosters=rosters
    )
    if request.method == "POST" and form.is_valid():
        try:
            link = table_links.fixture_link_start(
                link=link,
                seats=form.cleaned_data["seats"],
                first_dealer=form.cleaned_data["first_dealer"],
                user=request.user,
            )
        except TableLinkError as exc:
            return _refused(request, translated(exc.errors[0]["message"]))
        except services.GameError as exc:
            form.add_service_errors(exc.errors)
        else:
            table_links.session_remember(request, link)
            messages.success(request, gettext(STARTED).format(table=link.table_label or "-"))
            return redirect("games:deal-new", club_slug=fixture.club.slug, pk=link.game_id)
    seat_rows = [
        {
            "seat": form[f"seat_{i}"],
            "sub": form[f"sub_{i}"],
            "legend": form.legends[i],
            "side": adapters.seat_side(i, len(ruleset.sides)),
        }
        for i in range(ruleset.players)
    ]
    return render(
        request,
        "games/table_start.html",
        {
            "club": fixture.club,
            "fixture": fixture,
            "division": division,
            "link": link,
            "sides": sides,
            "form": form,
            "seat_rows": seat_rows,
        },
    )


@club_view("score")
def fixture_table_card(request: HttpRequest, fixture_pk: int) -> HttpResponse:
    """A fixture's printable table card before its game starts: the QR code of the
    fixture's table link (scanned, it starts the game at the table). Once the game is
    started, the game's own card."""
    fixture = get_object_or_404(
        Fixture.objects.select_related("division", "home", "away", "venue"),
        club=request.club,
        pk=fixture_pk,
    )
    started = table_links.fixture_started_game(fixture=fixture)
    if started is not None:
        return redirect("games:table-card", club_slug=request.club.slug, pk=started.pk)
    links = table_links.fixture_links_ensure(fixtures=[fixture], user=request.user)
    return render(
        request,
        "games/fixture_table_card.html",
        {
            "club": request.club,
            "access": request.club_access,
            "fixture": fixture,
            "link": links.get(fixture.pk),
            "fixture_links": links,
        },
    )


def _fixture(request: HttpRequest, fixture_pk: int) -> Fixture:
    return get_object_or_404(Fixture, club=request.club, pk=fixture_pk)


@require_POST
@club_view("manage")
def fixture_link_new(request: HttpRequest, fixture_pk: int) -> HttpResponse:
    """A club admin issues a new link for the fixture's table (the old card stops)."""
    fixture = _fixture(request, fixture_pk)
    label = request.POST.get("table_label")
    user = request.user
    _link_change(
        request,
        lambda: table_links.fixture_link_issue(fixture=fixture, table_label=label, user=user),
        FIXTURE_ISSUED,
    )
    return redirect("games:fixture-table-card", club_slug=request.club.slug, fixture_pk=fixture.pk)


@require_POST
@club_view("manage")
def fixture_link_revoke(request: HttpRequest, fixture_pk: int) -> HttpResponse:
    """A club admin stops the fixture's waiting link (a lost card)."""
    fixture = _fixture(request, fixture_pk)
    _link_change(
        request,
        lambda: table_links.fixture_link_revoke(fixture=fixture, user=request.user),
        FIXTURE_REVOKED,
    )
    return redirect("games:fixture-table-card", club_slug=request.club.slug, fixture_pk=fixture.pk)
