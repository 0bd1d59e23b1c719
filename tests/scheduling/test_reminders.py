"""Reminders (issue 10): each email is sent on its own, so one that fails cannot stop the
rest of the night's reminders; a name holding a line break cannot break a header."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services.jobs import fixtures_remind
from tests.factories import UserFactory

from .test_services import FIRST_MONDAY, scheduled  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


class RefusesOneAddress(EmailBackend):
    """The mail server refusing one recipient, as a real one can."""

    def send_messages(self, messages):
        for message in messages:
            if "refused@example.org" in message.to:
                raise OSError("550 mailbox unavailable")
        return super().send_messages(messages)


def _give_email(fixture, username: str, email: str) -> None:
    member = fixture.home.members.order_by("position").first()
    member.player.user = UserFactory(username=username, email=email)
    member.player.save()


def test_one_failing_email_does_not_stop_the_others(scheduled, settings):  # noqa: F811
    settings.EMAIL_BACKEND = "tests.scheduling.test_reminders.RefusesOneAddress"
    first, second = [f for f in scheduled if f.date == FIRST_MONDAY][:2]
    _give_email(first, "bob", "refused@example.org")
    _give_email(second, "ada", "ada@example.org")
    assert fixtures_remind(on=FIRST_MONDAY) == 1
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]
    assert not Fixture.objects.filter(date=FIRST_MONDAY, reminded_at__isnull=True).exists()


def test_a_team_name_with_a_line_break_cannot_break_the_subject(scheduled):  # noqa: F811
    fixture = scheduled[0]
    # a name stored before names were checked (the API and pages refuse it now)
    fixture.home.name = "Aces\r\nBcc: everyone@example.org"
    fixture.home.save()
    _give_email(fixture, "ada", "ada@example.org")
    assert fixtures_remind(on=FIRST_MONDAY) == 1
    subject = mail.outbox[0].subject
    assert "\n" not in subject and "\r" not in subject
    assert mail.outbox[0].bcc == []


def test_a_reminder_has_a_plain_text_and_an_html_body(scheduled):  # noqa: F811
    """Issue 13: every email the service sends carries both bodies (core.mail)."""
    fixture = scheduled[0]
    fixture.home.name = "Aces & <Kings>"  # escaped in the HTML, as written in the text
    fixture.home.save()
    _give_email(fixture, "ada", "ada@example.org")
    assert fixtures_remind(on=FIRST_MONDAY, base_url="https://league.example.org") == 1
    message = mail.outbox[0]
    url = f"https://league.example.org/clubs/{fixture.club.slug}/schedule/teams/{fixture.home_id}/"
    assert "Aces & <Kings> deals first." in message.body
    assert url in message.body
    assert "<" not in message.body.replace("<Kings>", "")
    [(html, mimetype)] = message.alternatives
    assert mimetype == "text/html"
    assert "Aces &amp; &lt;Kings&gt; deals first." in html
    assert f'href="{url}"' in html
    assert (
        f"round {fixture.round_number}" in html and f"round {fixture.round_number}" in message.body
    )
