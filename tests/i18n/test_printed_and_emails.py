"""A printed sheet, a table card and an email in Dutch, German and Japanese (issue 33).

Each is rendered for a member who reads that language and read as paper would be: its
``<html lang>``, and no text of the English catalog that the language translates (a text
left out of the catalog, or one the catalog lacks, would print in English).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from clabber_league.clubs.models import Club
from clabber_league.games.models import Game
from clabber_league.members import services as members
from tests.browser.languages import english_texts

pytestmark = pytest.mark.django_db

LANGUAGES = ["nl", "de", "ja"]


class _Texts(HTMLParser):
    """The words of an HTML page as it prints: text and the attributes read aloud."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style"}:
            self._skip += 1
        for name, value in attrs:
            if name in {"title", "aria-label", "alt", "placeholder"} and value:
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag):
        if tag in {"script", "style"}:
            self._skip -= 1

    def handle_data(self, data):
        text = " ".join(data.split())
        if text and not self._skip:
            self.texts.append(text)


def english_left(html: str, lang: str) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    english = english_texts(lang)
    return sorted({t for t in parser.texts for part in (t, t.rstrip(":· ")) if part in english})


@pytest.fixture
def demo(db):
    call_command("seed_demo", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get(slug="evansville")
    admin = club.memberships.get(user__username="admin").user
    return club, admin


def _reader(admin, lang: str) -> Client:
    members.profile_set_language(user=admin, language=lang)
    client = Client()
    client.force_login(admin)
    return client


@pytest.mark.parametrize("lang", LANGUAGES)
def test_printed_sheets_and_table_cards_are_in_the_readers_language(demo, lang):
    club, admin = demo
    client = _reader(admin, lang)
    game = Game.objects.filter(club=club, status=Game.Status.IN_PROGRESS).first()
    base = f"/clubs/{club.slug}/games/{game.pk}"
    for url in (f"{base}/", f"{base}/paper-sheet/", f"{base}/table-card/", "/rules/clabber/sheet/"):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{lang}"' in html, url
        assert english_left(html, lang) == [], url


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_invitation_email_is_in_the_readers_language(
    demo, lang, django_capture_on_commit_callbacks
):
    club, admin = demo
    invitee = admin.__class__.objects.create_user("reader", email="reader@example.org")
    members.profile_set_language(user=invitee, language=lang)
    with django_capture_on_commit_callbacks(execute=True), translation.override("en"):
        members.invitation_create(club=club, created_by=admin, email="reader@example.org")
    [message] = mail.outbox
    html, _mimetype = message.alternatives[0]
    assert f'<html lang="{lang}"' in html
    assert english_left(html, lang) == []
    english = english_texts(lang)
    assert not [line for line in message.body.splitlines() if line.strip() in english]
    assert message.subject not in english
