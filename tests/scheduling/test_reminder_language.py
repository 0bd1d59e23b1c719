"""A fixture's reminder in each player's language (issue 33): their own, else the club's,
else English; the day is named in it (Django's own catalogs give weekday names)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import formats, translation

from clabber_league.members.models import MemberProfile
from clabber_league.scheduling.services.jobs import fixtures_remind

from .test_reminders import _give_email
from .test_services import FIRST_MONDAY, scheduled  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def _weekday(language: str) -> str:
    with translation.override(language):
        return formats.date_format(FIRST_MONDAY, "l")


def test_a_fixture_reminder_names_the_day_in_the_players_language(scheduled):  # noqa: F811
    fixture = scheduled[0]
    _give_email(fixture, "ada", "ada@example.org")
    user = fixture.home.members.order_by("position").first().player.user
    MemberProfile.objects.update_or_create(user=user, defaults={"language": "ja"})
    assert fixtures_remind(on=FIRST_MONDAY) == 1
    [message] = mail.outbox
    weekday = _weekday("ja")
    assert weekday == "月曜日"
    assert weekday in message.subject and weekday in message.body
    assert '<html lang="ja">' in message.alternatives[0][0]


def test_a_player_who_follows_the_club_reads_the_clubs_language(scheduled):  # noqa: F811
    fixture = scheduled[0]
    fixture.club.language = "cs"
    fixture.club.save(update_fields=["language"])
    _give_email(fixture, "ada", "ada@example.org")
    assert fixtures_remind(on=FIRST_MONDAY) == 1
    [message] = mail.outbox
    assert _weekday("cs") in message.subject
    assert '<html lang="cs">' in message.alternatives[0][0]
