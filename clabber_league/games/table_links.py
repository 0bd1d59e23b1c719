"""Table links: a signed URL per game that lets the phone at the table score that game.

A club's tables rarely have a logged-in scorer's phone at hand. Each game gets a *table
link* (``/t/<token>/``, printed as a QR code on the table card, the night sheet and the
game's page). Opening it stores the link in the phone's session and opens the game's deal
entry; from then on the deal pages and the deal API of **that game only** accept the phone
as a scorer, without an account, until the game is confirmed (or abandoned), the link is
revoked by a club admin, or it expires (``CLABBER_TABLE_LINK_DAYS``). Every deal entered
so is marked with the table ("entered at table 3 (table link)") in the game's history.

The token is ``<link id>.<nonce>`` signed with the site's key (``django.core.signing``):
a link can be printed again at any time, a tampered token is refused before any query,
and revoking one (``table_link_revoke``) or issuing a new one (``table_link_issue``)
makes the old token useless, since its row is revoked.

Who checks what: this module checks the token and the link's state and hands the result
to ``clubs.access`` as a ``TableGrant`` (``club_view(table=page_grant)`` on the pages of one
game; ``table_grant = api_grant`` on the game's API views, with the header
``Authorization: Table <token>``); ``clubs.access`` checks the club and decides.

A fixture gets its link before its game exists (``fixture_link_issue``: the night sheet
prints it): scanned, it opens a page that starts *that fixture's* game (its teams, the
phone choosing who sits where, ``fixture_link_start``), and from then on it is that game's
link (``TableLink.game`` is set: "bound"). A game a scorer's page started for the fixture
takes the fixture's waiting link as its own (``table_link_ensure``, or on the next scan).

Services (writes): ``table_link_issue``, ``table_link_revoke``, ``table_link_ensure``,
``fixture_link_issue``, ``fixture_link_revoke``, ``fixture_links_ensure``,
``fixture_link_start``.
Selectors (reads): ``table_link_live``, ``table_links_live``, ``table_link_url``,
``table_link_check``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from clabber_league.clubs.access import TableGrant
from clabber_league.clubs.models import Role
from clabber_league.core.errors import CONFLICT, FORBIDDEN
from clabber_league.rules.errors import msg

from .hooks import table_link_closed
from .models import UNNAMED_TABLE, Game, TableLink
from .services import GameError

SALT = "clabber_league.games.table-link"
SESSION_KEY = "table_links"
#: The most games one phone's session remembers (a phone serves one table a night).
SESSION_MAX = 20
HEADER_KEYWORD = "Table"

LINK_TAMPERED = gettext_noop(
    "This table link is not valid: it was mistyped or changed. Scan the QR code on the "
    "table's card again, or ask a club admin for a new card."
)
LINK_REVOKED = gettext_noop(
    "This table link was revoked by a club admin: it no longer records deals. Scan the "
    "table's new card."
)
LINK_EXPIRED = gettext_noop(
    "This table link expired: a club admin can issue a new one for the table."
)
LINK_GAME_CONFIRMED = gettext_noop(
    "This game is confirmed: its table link no longer records deals."
)
LINK_GAME_ABANDONED = gettext_noop(
    "This game was abandoned: its table link no longer records deals."
)
LINK_OTHER_CLUB = gettext_noop("This table link is for another club's game: it opens nothing here.")
LINK_OTHER_GAME = gettext_noop("This table link is for another game: it scores its own game only.")
LINK_NOT_HERE = gettext_noop(
    "A table link records and corrects the deals of its game; this needs a club member's account."
)
LINK_GAME_CLOSED = gettext_noop("This game is {status}: it gets no new table link.")
LINK_NONE = gettext_noop("This game has no table link that works: a club admin can issue one.")
LINK_FIXTURE_NONE = gettext_noop(
    "This fixture has no table link that works: a club admin can issue one."
)
LINK_FIXTURE_DECIDED = gettext_noop(
    "This fixture is already decided: its table link starts no game."
)
LINK_FIXTURE_HAS_CARD = gettext_noop(
    "This fixture's game was started with a table card of its own: scan that card's QR code."
)
LINK_NOT_STARTED = gettext_noop(
    "This table link starts its fixture's game: open it on the phone at the table first."
)
LABEL_TOO_LONG = gettext_noop("A table's name has at most 40 characters.")

#: What a closed game's link answers.
CLOSED = {
    Game.Status.CONFIRMED: LINK_GAME_CONFIRMED,
    Game.Status.ABANDONED: LINK_GAME_ABANDONED,
}


def _closed_message(link: TableLink) -> str:
    """Why a closed game's link opens nothing: in the words of a layer above when one
    answers ``hooks.table_link_closed`` (a club night's finished round), else the games'."""
    answers = table_link_closed.ask(link=link)
    return answers[0] if answers else CLOSED[link.game.status]


class TableLinkError(GameError):
    """A table link that opens nothing (``kind`` forbidden), or a refused issue/revoke."""


# --- tokens -------------------------------------------------------------------------------


def _signer() -> signing.Signer:
    return signing.Signer(salt=SALT, algorithm="sha256")


def table_link_token(link: TableLink) -> str:
    """The token of ``link``'s URL: ``<id>.<nonce>:<signature>``."""
    return _signer().sign(f"{link.pk}.{link.nonce}")


def _link_id(token: str) -> tuple[int, str] | None:
    """The link id and nonce that ``token`` signs, or None for a token not signed here."""
    if not isinstance(token, str) or len(token) > 200:
        return None
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        return None
    pk, _, nonce = value.partition(".")
    return (int(pk), nonce) if pk.isdigit() and nonce else None


def table_link_check(token: str) -> TableLink:
    """The live link that ``token`` names, with its game and club; ``TableLinkError`` with
    the reason (tampered, revoked, expired, game confirmed or abandoned) otherwise."""
    named = _link_id(token)
    link = None
    if named is not None:
        link = (
            TableLink.objects.select_related("game", "game__club", "fixture", "fixture__club")
            .filter(pk=named[0], nonce=named[1])
            .first()
        )
    if link is None:
        raise TableLinkError.one("table_link", LINK_TAMPERED, kind=FORBIDDEN)
    if link.revoked_at is not None:
        raise TableLinkError.one("table_link", LINK_REVOKED, kind=FORBIDDEN)
    if link.expires_at is not None and link.expires_at <= timezone.now():
        raise TableLinkError.one("table_link", LINK_EXPIRED, kind=FORBIDDEN)
    if link.game is None:
        link = _fixture_link_bind(link)
        if link.game is None:
            return link  # the fixture's game is not started yet: the phone starts it
    if link.game.status in CLOSED:
        raise TableLinkError.one("table_link", _closed_message(link), kind=FORBIDDEN)
    return link


def table_grant(link: TableLink) -> TableGrant:
    """What ``link`` opens, as ``clubs.access`` takes it."""
    return TableGrant(
        club_id=link.game.club_id,
        game_id=link.game_id,
        table_label=link.table_label,
        link_id=link.pk,
    )


# --- selectors ----------------------------------------------------------------------------


def table_link_live(*, game: Game) -> TableLink | None:
    """The game's link that is not revoked (it may have expired), or None."""
    return game.table_links.filter(revoked_at__isnull=True).first()


def table_links_live(*, games: Iterable[Game]) -> dict[int, TableLink]:
    """The live link of each of ``games`` that has one, by game id, in one query."""
    ids = [g.pk for g in games]
    links = TableLink.objects.filter(game_id__in=ids, revoked_at__isnull=True)
    return {link.game_id: link for link in links}


def link_club(link: TableLink) -> Any:
    """The club whose game (or fixture) the link scores."""
    return link.game.club if link.game_id is not None else link.fixture.club


def fixture_link_live(*, fixture: Any) -> TableLink | None:
    """The fixture's link that waits for its game to start (not revoked), or None."""
    return fixture.table_links.filter(revoked_at__isnull=True, game__isnull=True).first()


def fixture_started_game(*, fixture: Any) -> Game | None:
    """The fixture's game being played (in progress or finished, not yet confirmed)."""
    return _open_games(fixture.pk).first()


def _open_games(fixture_id: int) -> Any:
    return Game.objects.filter(
        fixture_id=fixture_id, status__in=[Game.Status.IN_PROGRESS, Game.Status.FINISHED]
    ).order_by("number", "id")


def _fixture_link_bind(link: TableLink) -> TableLink:
    """A fixture's link not bound to a game yet: refused once the fixture is decided; bound
    to the fixture's game when a scorer's page started it meanwhile (the first open game
    without a link of its own); else returned as it is, for the phone to start the game."""
    fixture = link.fixture
    open_games = list(_open_games(fixture.pk)[:8])
    if not open_games and fixture.status in fixture.DONE:
        raise TableLinkError.one("table_link", LINK_FIXTURE_DECIDED, kind=FORBIDDEN)
    if not open_games:
        return link
    with_links = set(
        TableLink.objects.filter(game__in=open_games, revoked_at__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    free = [g for g in open_games if g.pk not in with_links]
    if not free:
        raise TableLinkError.one("table_link", LINK_FIXTURE_HAS_CARD, kind=FORBIDDEN)
    try:
        with transaction.atomic():
            TableLink.objects.filter(pk=link.pk, game__isnull=True).update(game=free[0])
    except IntegrityError:  # the game got a link of its own at that moment: start page
        pass
    related = ("game", "game__club", "fixture", "fixture__club")
    return TableLink.objects.select_related(*related).get(pk=link.pk)


def table_link_path(link: TableLink) -> str:
    return reverse("table-link", kwargs={"token": table_link_token(link)})


def table_link_url(link: TableLink, *, request: HttpRequest | None = None) -> str:
    """The link's absolute URL: from the request's host (a phone on the club's Wi-Fi
    reaches the laptop by the address the page was opened with), else from the
    ``CLABBER_SITE_URL`` setting, else the path alone."""
    path = table_link_path(link)
    if request is not None:
        return request.build_absolute_uri(path)
    base = getattr(settings, "CLABBER_SITE_URL", "").rstrip("/")
    return f"{base}{path}"


def default_label(game: Game) -> str:
    """The table a game is played at, as far as the schedule knows (the fixture's table)."""
    fixture = game.fixture
    if fixture is not None and fixture.table:
        return str(fixture.table)
    return ""


def _expiry(setting: str = "CLABBER_TABLE_LINK_DAYS", default: int = 7) -> dt.datetime | None:
    days = int(getattr(settings, setting, default) or 0)
    return timezone.now() + dt.timedelta(days=days) if days > 0 else None


def _fixture_expiry() -> dt.datetime | None:
    """A fixture's link is printed when the schedule is, often weeks before its night: by
    default it works until the fixture is decided (``CLABBER_FIXTURE_LINK_DAYS``: 0), not
    for a game link's seven days, so a card printed early still scans on the night."""
    return _expiry("CLABBER_FIXTURE_LINK_DAYS", 0)


# --- services -----------------------------------------------------------------------------


@transaction.atomic
def table_link_issue(
    *,
    game: Game,
    table_label: str | None = None,
    user: Any = None,
    expires_at: dt.datetime | None = None,
) -> TableLink:
    """A new link for ``game``'s table; the one it had, if any, is revoked (a lost or
    photographed card). ``table_label`` defaults to the old link's, else the fixture's
    table. Refused for a confirmed or abandoned game (409)."""
    game = Game.objects.select_for_update(of=("self",)).select_related("fixture").get(pk=game.pk)
    if game.status in CLOSED:
        message = msg(LINK_GAME_CLOSED, status=game.get_status_display().lower())
        raise TableLinkError.one("game", message, kind=CONFLICT)
    old = table_link_live(game=game)
    if table_label is None:
        table_label = old.table_label if old is not None else default_label(game)
    table_label = " ".join(str(table_label).split())
    if len(table_label) > 40:
        raise TableLinkError.one("table_label", LABEL_TOO_LONG)
    now = timezone.now()
    if old is not None:
        old.revoked_at = now
        old.revoked_by = _account(user)
        old.save(update_fields=["revoked_at", "revoked_by"])
    return TableLink.objects.create(
        game=game,
        nonce=secrets.token_urlsafe(9),
        table_label=table_label,
        created_by=_account(user),
        expires_at=expires_at if expires_at is not None else _expiry(),
    )


@transaction.atomic
def table_link_revoke(*, game: Game, user: Any = None) -> TableLink:
    """Stop the game's live link at once (the phone that holds it can no longer score);
    409 when the game has none."""
    link = (
        TableLink.objects.select_for_update()
        .filter(game=game, revoked_at__isnull=True)
        .order_by("-created_at", "-id")  # no join to the game: its row is not locked
        .first()
    )
    if link is None:
        raise TableLinkError.one("table_link", LINK_NONE, kind=CONFLICT)
    link.revoked_at = timezone.now()
    link.revoked_by = _account(user)
    link.save(update_fields=["revoked_at", "revoked_by"])
    return link


def table_link_ensure(*, game: Game, user: Any = None) -> TableLink | None:
    """The game's live link, issuing the first one when the game never had a link and is
    still open. A game whose link was revoked gets no new one here: only a club admin
    issues it (``table_link_issue``), so revoking stops a lost card for good."""
    link = table_link_live(game=game)
    if link is not None or game.status in CLOSED or game.table_links.exists():
        return link
    if game.fixture_id is not None:  # the fixture's card printed before the game started
        waiting = TableLink.objects.filter(
            fixture_id=game.fixture_id, game__isnull=True, revoked_at__isnull=True
        ).update(game=game)
        if waiting:
            return table_link_live(game=game)
    try:
        return table_link_issue(game=game, user=user)
    except IntegrityError:  # issued at the same moment by another request
        return table_link_live(game=game)


def table_links_ensure(*, games: Iterable[Game], user: Any = None) -> dict[int, TableLink]:
    """:func:`table_link_ensure` for many games (a night sheet): the live links in one
    query, a new link for each open game that never had one."""
    games = list(games)
    links = table_links_live(games=games)
    missing = [g for g in games if g.pk not in links and g.status not in CLOSED]
    if missing:
        had = set(TableLink.objects.filter(game__in=missing).values_list("game_id", flat=True))
        for game in missing:
            if game.pk not in had:
                link = table_link_ensure(game=game, user=user)
                if link is not None:
                    links[game.pk] = link
    return links


def fixtures_table_links(
    *, fixtures: Iterable[Any], user: Any = None
) -> tuple[dict[int, list[Game]], dict[int, TableLink]]:
    """The games being played for ``fixtures`` (a night's: in progress or finished, not yet
    confirmed), by fixture id, and the live link of each (issuing a game's first): two
    queries and an insert per game that never had a link."""
    ids = [f.pk for f in fixtures]
    games = list(
        Game.objects.filter(
            fixture_id__in=ids, status__in=[Game.Status.IN_PROGRESS, Game.Status.FINISHED]
        ).order_by("fixture_id", "number", "id")[: 4 * len(ids) + 4]
    )
    by_fixture: dict[int, list[Game]] = {}
    for game in games:
        by_fixture.setdefault(game.fixture_id, []).append(game)
    return by_fixture, table_links_ensure(games=games, user=user)


@transaction.atomic
def fixture_link_issue(
    *, fixture: Any, table_label: str | None = None, user: Any = None
) -> TableLink:
    """A new link for ``fixture``'s table, printed before its game starts (the night
    sheet): scanned, it starts the fixture's game and goes on as that game's link. The one
    it had that was still waiting is revoked. Refused for a decided fixture (409)."""
    if fixture.status in fixture.DONE:
        raise TableLinkError.one("fixture", LINK_FIXTURE_DECIDED, kind=CONFLICT)
    old = (
        TableLink.objects.select_for_update()
        .filter(fixture=fixture, game__isnull=True, revoked_at__isnull=True)
        .order_by("-created_at", "-id")
        .first()
    )
    if table_label is None:
        table_label = old.table_label if old is not None else str(fixture.table or "")
    table_label = " ".join(str(table_label).split())
    if len(table_label) > 40:
        raise TableLinkError.one("table_label", LABEL_TOO_LONG)
    if old is not None:
        old.revoked_at = timezone.now()
        old.revoked_by = _account(user)
        old.save(update_fields=["revoked_at", "revoked_by"])
    return TableLink.objects.create(
        fixture=fixture,
        nonce=secrets.token_urlsafe(9),
        table_label=table_label,
        created_by=_account(user),
        expires_at=_fixture_expiry(),
    )


@transaction.atomic
def fixture_link_revoke(*, fixture: Any, user: Any = None) -> TableLink:
    """Stop the fixture's waiting link (409 when it has none)."""
    link = (
        TableLink.objects.select_for_update()
        .filter(fixture=fixture, game__isnull=True, revoked_at__isnull=True)
        .order_by("-created_at", "-id")
        .first()
    )
    if link is None:
        raise TableLinkError.one("table_link", LINK_FIXTURE_NONE, kind=CONFLICT)
    link.revoked_at = timezone.now()
    link.revoked_by = _account(user)
    link.save(update_fields=["revoked_at", "revoked_by"])
    return link


def fixture_links_ensure(*, fixtures: Iterable[Any], user: Any = None) -> dict[int, TableLink]:
    """The waiting link of each of ``fixtures`` not decided yet, by fixture id, issuing a
    fixture's first one; a fixture whose waiting link was revoked gets none here (a club
    admin issues it), as a game's."""
    fixtures = [f for f in fixtures if f.status not in f.DONE]
    rows = TableLink.objects.filter(fixture__in=fixtures, game__isnull=True)
    links: dict[int, TableLink] = {}
    had: set[int] = set()
    for link in rows:
        had.add(link.fixture_id)
        if link.revoked_at is None:
            links[link.fixture_id] = link
    for fixture in fixtures:
        if fixture.pk not in had:
            try:
                links[fixture.pk] = fixture_link_issue(fixture=fixture, user=user)
            except IntegrityError:  # issued at the same moment by another request
                link = fixture_link_live(fixture=fixture)
                if link is not None:
                    links[fixture.pk] = link
    return links


@transaction.atomic
def fixture_link_start(
    *, link: TableLink, seats: list[Any], first_dealer: int | None, user: Any = None
) -> TableLink:
    """The phone at the table starts the fixture's game through the fixture's link: the
    game is started (``services.game_start``, its fixture's teams) and the link becomes
    that game's link. When the game was started meanwhile, the link as it is now."""
    from . import services

    link = TableLink.objects.select_for_update().order_by().get(pk=link.pk)
    link = table_link_check(table_link_token(link))
    if link.game_id is not None:
        return link
    fixture = link.fixture
    game = services.game_start(
        club=fixture.club,
        division=fixture.division,
        sides={"A": fixture.home, "B": fixture.away},
        seats=seats,
        first_dealer=first_dealer,
        fixture=fixture,
        user=_account(user),
    )
    link.game = game
    link.save(update_fields=["game"])
    return link


def _account(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


# --- requests: the phone's session (pages) and the Authorization header (API) -------------


def at_table(access: Any, user: Any) -> str:
    """What a write through ``access`` records as its table: the grant's table, or "" when
    the caller scores by their own role (their account is what the history names)."""
    grant = getattr(access, "table", None)
    if grant is None:
        return ""
    membership = access.membership
    logged_in = user is not None and user.is_authenticated
    if logged_in and membership is not None and membership.has_role(Role.SCORER):
        return ""
    return grant.table_label or UNNAMED_TABLE


def session_remember(request: HttpRequest, link: TableLink) -> None:
    """Keep the link in the phone's session, so the game's pages accept it."""
    kept = dict(request.session.get(SESSION_KEY) or {})
    kept.pop(str(link.game_id), None)
    kept[str(link.game_id)] = table_link_token(link)
    while len(kept) > SESSION_MAX:
        kept.pop(next(iter(kept)))
    request.session[SESSION_KEY] = kept


def session_token(request: HttpRequest, game_id: int) -> str | None:
    kept = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    token = kept.get(str(game_id)) if isinstance(kept, Mapping) else None
    return token if isinstance(token, str) else None


def page_grant(request: HttpRequest, club_slug: str, *args: Any, **kwargs: Any) -> Any:
    """``club_view(table=...)`` for the pages of one game (its ``pk``): the grant of the
    table link this phone opened for that game, a grant carrying the reason when that link
    no longer works, or None when the phone opened none."""
    game_id = kwargs.get("pk")
    token = session_token(request, game_id) if game_id is not None else None
    if token is None:
        return None
    try:
        link = table_link_check(token)
    except TableLinkError as exc:
        return TableGrant(club_id=0, game_id=game_id, refusal=exc.errors[0]["message"])
    if link.game.club.slug != club_slug:
        return TableGrant(club_id=0, game_id=game_id, refusal=LINK_OTHER_CLUB)
    if str(link.game_id) != str(game_id):  # kept under another game's id: never its grant
        return TableGrant(club_id=0, game_id=game_id, refusal=LINK_OTHER_GAME)
    request.table_link = link  # type: ignore[attr-defined]
    return table_grant(link)


#: The API actions a table link may use, by view: the deals of its game and the game itself.
API_ACTIONS = {
    "GameViewSet": {"retrieve", "paper_sheet"},
    "DealViewSet": None,  # every action
    "RevisionViewSet": None,
    "HandoverViewSet": None,  # members: the sides' acceptance at the end of the game
}


def api_grant(view: Any, request: Any, kwargs: Mapping[str, Any]) -> TableGrant | None:
    """``ClubScopedMixin.table_grant`` for the game's API views: the grant of the link in
    ``Authorization: Table <token>`` (checked by :class:`TableLinkAuthentication`), only
    for its own game and club; a clear 403 otherwise."""
    link = getattr(request, "auth", None)
    if not isinstance(link, TableLink):
        return None
    actions = API_ACTIONS.get(type(view).__name__, set())
    if actions is not None and getattr(view, "action", None) not in actions:
        raise exceptions.PermissionDenied(LINK_NOT_HERE)
    if link.game.club.slug != kwargs.get("club_slug"):
        raise exceptions.PermissionDenied(LINK_OTHER_CLUB)
    game_id = kwargs.get("game_id", kwargs.get("pk"))
    if str(link.game_id) != str(game_id):
        raise exceptions.PermissionDenied(LINK_OTHER_GAME)
    view.table_link = link
    return table_grant(link)


class TableLinkAuthentication(BaseAuthentication):
    """``Authorization: Table <token>``: the phone at a table, without an account.

    The caller stays anonymous (``request.user``); ``request.auth`` is the link, which the
    game's views turn into a grant for that game only (:func:`api_grant`). A token that
    no longer works is refused with its reason (403)."""

    keyword = HEADER_KEYWORD

    def authenticate(self, request: Any) -> tuple[Any, TableLink] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(LINK_TAMPERED)
        try:
            token = parts[1].decode("ascii")
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed(LINK_TAMPERED) from exc
        try:
            link = table_link_check(token)
        except TableLinkError as exc:
            raise exceptions.PermissionDenied(exc.errors[0]["message"]) from exc
        if link.game_id is None:
            raise exceptions.PermissionDenied(LINK_NOT_STARTED)
        return AnonymousUser(), link

    def authenticate_header(self, request: Any) -> str:
        return self.keyword
