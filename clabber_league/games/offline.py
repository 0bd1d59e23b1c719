"""What the deal page hands its offline entry script (``static/js/offline_entry.js``).

The page embeds the game's running state as JSON (``json_script``): the rule set, totals,
hanging pot, deal count and next dealer as the server holds them, the names of sides and
seats, and the URLs of the deal API, the sheet, the engine worker, Pyodide and the packed
rules. From these the phone scores further deals with the rules engine (Pyodide) while it
has no network, and sends them to the deal API when it has. Nothing here scores a deal.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation

from clabber_league.site.offline import engine_urls

from . import adapters, services, table_links
from .forms import CLAIM_ROWS
from .models import Deal, Game


def offline_game(
    request: HttpRequest,
    game: Game,
    seat_names: dict[int, str],
    side_names: dict[str, str],
    correcting: Deal | None = None,
) -> dict[str, Any]:
    club = request.club
    ruleset = adapters.game_ruleset(game)
    kwargs = {"club_slug": club.slug, "pk": game.pk}
    return {
        "key": f"{club.slug}/{game.pk}",
        "deals_url": reverse("deal-list", kwargs={"club_slug": club.slug, "game_id": game.pk}),
        # The game's history: the phone shows deals another phone's sequence replaced.
        "history_url": reverse(
            "game-history-list", kwargs={"club_slug": club.slug, "game_id": game.pk}
        ),
        # On a correction's page: the deal it corrects (PUT to its API URL).
        "correcting": {
            "number": correcting.number,
            "url": reverse(
                "deal-detail",
                kwargs={"club_slug": club.slug, "game_id": game.pk, "pk": correcting.pk},
            ),
        }
        if correcting is not None
        else None,
        "set_aside_url": reverse(
            "deal-set-aside", kwargs={"club_slug": club.slug, "game_id": game.pk}
        ),
        "deal_page": reverse("games:deal-new", kwargs=kwargs),
        "sheet_page": reverse("games:detail", kwargs=kwargs),
        "sw": reverse("service-worker"),
        # The scripts' words in the page's language, kept by the worker for offline use.
        "catalog": reverse("javascript-catalog", args=[translation.get_language()]),
        "engine": engine_urls(),
        "rules": adapters.rules_input(game.rules),
        "status": game.status,
        "totals": game.scores,
        "pot": game.pot,
        "deal_count": game.deal_count,
        "next_dealer": services.next_dealer_seat(game=game),
        "sides": list(ruleset.sides),
        "side_names": side_names,
        "seat_names": {str(seat): name for seat, name in seat_names.items()},
        "meld_rows": adapters.MELD_ROWS,
        # Klaverjas: the tally sheet's form (static/js/offline_logic.js readKlaverjas).
        "klaverjas": ruleset.is_klaverjas,
        "claim_rows": CLAIM_ROWS,
        # The phone of a table link (no account) sends its deals with the link's token.
        "table_token": table_links.session_token(request, game.pk)
        if not request.user.is_authenticated
        else None,
        # The table links that open this game (``/t/<token>/``): the service worker answers
        # them with this page when the link is opened again with no network.
        "table_pages": _table_pages(request, game),
    }


def _table_pages(request: HttpRequest, game: Game) -> list[str]:
    """The paths of the table links that lead to this game's deal entry: the one this
    phone opened, and for a logged-in scorer the game's live links (one query)."""
    token = table_links.session_token(request, game.pk)
    paths = [reverse("table-link", kwargs={"token": token})] if token else []
    access = getattr(request, "club_access", None)
    if request.user.is_authenticated and access is not None and access.can("score"):
        for link in game.table_links.filter(revoked_at__isnull=True).order_by():
            path = table_links.table_link_path(link)
            if path not in paths:
                paths.append(path)
    return paths
