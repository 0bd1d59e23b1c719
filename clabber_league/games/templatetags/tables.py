"""``{% load tables %}``: a game's table link and its QR code, on any page.

- ``{% table_qr game %}``: the QR code (inline SVG, segno) of the game's table link, with
  the link written under it; nothing for a visitor who may not score the game (a table
  link gives its holder scorer rights, so only those who have them see it) or a game
  without a link that works. A game that never had a link gets its first one here.
- ``{% fixture_qr fixture %}``: the same for a fixture whose game is not started yet
  (its link, from ``fixture_links`` in the context, starts the game when scanned).
- ``{% table_link_url game as url %}``: the link's absolute URL ("" as above).
- ``{{ url|qr_svg:"label" }}``: any URL as an inline SVG QR code.
"""

from __future__ import annotations

from typing import Any

import segno
from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from clabber_league.games import table_links
from clabber_league.games.models import Game, TableLink

register = template.Library()


def qr_svg(url: str, label: str = "", *, scale: int = 4, omitsize: bool = False) -> SafeString:
    """``url`` as an SVG QR code (segno), labelled for screen readers; ``omitsize``: no
    width and height, only a viewBox, so that CSS sizes it (for print, in millimetres).

    The SVG always has its viewBox: a QR code whose CSS width differs from its own width
    (a card's ``width: 40mm``, ``max-width: 100%`` on a phone) is then scaled whole,
    where without one the browser cut its right and bottom off and it no longer scanned.
    ``border=4`` is the quiet zone the QR standard asks for around the code."""
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(
        scale=scale, border=4, dark="#000", light="#fff", svgclass="qr", omitsize=True
    )
    if not omitsize:
        width, height = qr.symbol_size(scale=scale, border=4)
        svg = svg.replace("<svg ", f'<svg width="{width}" height="{height}" ', 1)
    label_attr = format_html('<svg role="img" aria-label="{}" ', label or gettext("QR code"))
    return mark_safe(svg.replace("<svg ", label_attr, 1))  # segno escapes the URL itself


register.filter("qr_svg", qr_svg)


def _may_see(context: template.Context, game: Game) -> bool:
    """Only someone who may score this game sees its link (a table's phone sees its own)."""
    access = context.get("access") or getattr(context.get("request"), "club_access", None)
    if access is None or access.club.pk != game.club_id:
        return False
    table = getattr(access, "table", None)
    if table is not None and not table.refusal:
        return table.game_id == game.pk
    return access.can("score")


def _link(context: template.Context, game: Game) -> TableLink | None:
    links = context.get("table_links")
    if isinstance(links, dict) and game.pk in links:
        return links[game.pk]
    request = context.get("request")
    user = getattr(request, "user", None)
    return table_links.table_link_ensure(game=game, user=user)


@register.simple_tag(takes_context=True)
def table_link_url(context: template.Context, game: Game) -> str:
    if game is None or not _may_see(context, game):
        return ""
    link = _link(context, game)
    if link is None:
        return ""
    return table_links.table_link_url(link, request=context.get("request"))


@register.simple_tag(takes_context=True)
def table_qr(context: template.Context, game: Any, size: str = "small") -> SafeString:
    """The QR code of the game's table link, with the URL under it (``size``: ``small``
    for lists, ``large`` for a table card)."""
    url = table_link_url(context, game)
    if not url:
        return mark_safe("")
    link = _link(context, game)
    label = link.table_label if link is not None else ""
    words = (
        gettext("Table %(table)s: scan to score game %(game)s") % {"table": label, "game": game.pk}
        if label
        else gettext("Scan to score game %(game)s") % {"game": game.pk}
    )
    return _figure(url, words, size)


@register.simple_tag(takes_context=True)
def fixture_qr(context: template.Context, fixture: Any, size: str = "small") -> SafeString:
    """The QR code of a fixture's table link, before its game starts (``fixture_links`` in
    the context, by fixture id); nothing for a visitor who may not score."""
    access = context.get("access") or getattr(context.get("request"), "club_access", None)
    links = context.get("fixture_links")
    link = links.get(fixture.pk) if isinstance(links, dict) else None
    if link is None or access is None or access.club.pk != fixture.club_id:
        return mark_safe("")
    if getattr(access, "table", None) is not None or not access.can("score"):
        return mark_safe("")
    url = table_links.table_link_url(link, request=context.get("request"))
    who = gettext("%(home)s v %(away)s") % {"home": fixture.home.name, "away": fixture.away.name}
    words = (
        gettext("Table %(table)s: scan to start and score %(match)s")
        % {"table": link.table_label, "match": who}
        if link.table_label
        else gettext("Scan to start and score %(match)s") % {"match": who}
    )
    return _figure(url, words, size)


def _figure(url: str, words: str, size: str) -> SafeString:
    svg = qr_svg(url, words, scale=8 if size == "large" else 3, omitsize=True)
    return format_html(
        '<figure class="table-qr table-qr-{}">{}<figcaption><a href="{}" '
        'class="table-link-url">{}</a></figcaption></figure>',
        "large" if size == "large" else "small",
        svg,
        url,
        url,
    )
