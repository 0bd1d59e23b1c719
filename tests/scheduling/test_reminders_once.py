"""Reminders exactly once, with absolute links (issue 31): each fixture is claimed before its
emails go, so two beats running the reminder task at the same moment, or a retried task,
never send a reminder twice; the link in it carries the site's address from
``CLABBER_SITE_URL``, the beat having no request to take a host from."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections import Counter

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import connection, connections
from django.utils import timezone

from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.tasks import send_reminders
from tests.factories import DivisionFactory, FixtureFactory, TeamFactory, UserFactory

NIGHT = dt.date(2026, 9, 7)
SITE = "https://league.example.org"


class SlowBackend(EmailBackend):
    """A mail server that takes a moment per message, so that two beats' runs overlap."""

    lock = threading.Lock()

    def send_messages(self, messages):
        time.sleep(0.02)
        with self.lock:
            return super().send_messages(messages)


def _night(fixtures: int) -> list[Fixture]:
    """``fixtures`` fixtures on NIGHT, each team's first player with an email address."""
    division = DivisionFactory()
    made = []
    for n in range(fixtures):
        home, away = (TeamFactory(division=division) for _ in range(2))
        for side, team in (("h", home), ("a", away)):
            member = team.members.order_by("position").first()
            member.player.user = UserFactory(
                username=f"p{n}{side}", email=f"p{n}{side}@example.org"
            )
            member.player.save()
        made.append(FixtureFactory(home=home, away=away, date=NIGHT))
    return made


def _days_ahead() -> int:
    """The task's argument that makes NIGHT its night, whatever today is."""
    return (NIGHT - timezone.localdate()).days


@pytest.mark.django_db
def test_a_retried_reminder_task_sends_nothing_twice_and_links_are_absolute(settings):
    settings.CLABBER_SITE_URL = SITE + "/"
    fixtures = _night(3)
    assert send_reminders(_days_ahead()) == 6
    assert send_reminders(_days_ahead()) == 0  # the retry: every fixture is claimed
    assert len(mail.outbox) == 6
    for fixture in fixtures:
        url = f"{SITE}/clubs/{fixture.club.slug}/schedule/teams/{fixture.home_id}/"
        sent = [m for m in mail.outbox if f"{fixture.home} v {fixture.away}" in m.subject]
        assert len(sent) == 2
        for message in sent:
            assert url in message.body
            [(html, _)] = message.alternatives
            assert f'href="{url}"' in html
    assert not Fixture.objects.filter(reminded_at__isnull=True).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="threads need PostgreSQL")
@pytest.mark.django_db(transaction=True)  # each thread reads what the test committed
def test_two_beats_at_once_send_each_reminder_once(settings):
    settings.EMAIL_BACKEND = "tests.scheduling.test_reminders_once.SlowBackend"
    _night(12)
    start = threading.Barrier(2)
    sent: list[int] = []
    failures: list[BaseException] = []

    def beat() -> None:
        try:
            start.wait(timeout=10)
            sent.append(send_reminders(_days_ahead()))
        except BaseException as exc:  # reported by the assertion below
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=beat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    assert sum(sent) == 24
    counts = Counter(tuple(m.to) for m in mail.outbox)
    assert len(counts) == 24
    assert set(counts.values()) == {1}  # every player emailed exactly once
