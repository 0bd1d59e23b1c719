"""Notifications reach a member's devices (a real push service on 127.0.0.1, the payload
decrypted with the device's keys) and their inbox (Django's outbox), as they chose; a
device that is gone (404, 410) is forgotten; quiet hours hold or drop; nothing breaks for a
member without a device."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.members.models import MemberProfile
from clabber_league.notify import services
from clabber_league.notify.models import Notification, NotifySettings, PushSubscription
from clabber_league.scheduling.services import fixture_changes
from tests.events.conftest import play_out

pytestmark = pytest.mark.django_db


def subscribe(user, device) -> PushSubscription:
    return services.push_subscription_save(
        user=user, endpoint=device.endpoint, p256dh=device.keys["p256dh"], auth=device.keys["auth"]
    )


def choose(user, **kinds) -> None:
    """``kind=["push", "email"]`` for the kinds named, nothing for the others."""
    services.notify_settings_save(user=user, channels=kinds)


@pytest.fixture
def tonight(club, players, secretary):
    night = event_services.event_create(
        club=club, name="Tuesday night", date=dt.date(2026, 12, 1), rules="clabber", rounds=1
    )
    for player in players[:4]:
        checkin.entry_check_in(event=night, player=player)
    return night


def test_a_drawn_round_tells_each_player_their_table_by_push_and_email(
    tonight, players, access, push_service, django_capture_on_commit_callbacks
):
    first = players[0].user
    device = push_service.device("first")
    subscribe(first, device)
    choose(first, table=["push", "email"])
    with django_capture_on_commit_callbacks(execute=True):
        drawn = rounds.round_draw(event=tonight, access=access)
    table = drawn.tables.get()
    [payload] = device.received
    assert payload["title"] == f"Round 1: table {table.number}"
    others = [p.name for p in players[:4] if p != players[0]]
    assert all(name in payload["body"] for name in others)
    assert payload["url"] == f"/clubs/{tonight.club.slug}/events/{tonight.pk}/"
    headers = {k.lower(): v for k, v in device.headers[0].items()}
    assert headers["authorization"].startswith("vapid t=")  # signed with VAPID
    [email] = [m for m in mail.outbox if m.to == [first.email]]
    assert email.subject == payload["title"]
    assert payload["body"] in email.body
    # The other three players chose nothing: the defaults (push) with no device: nothing,
    # and nothing broken.
    told = Notification.objects.filter(kind="table")
    assert told.count() == 4
    assert set(told.exclude(user=first).values_list("status", flat=True)) == {"nothing"}


def test_the_draw_is_out_reaches_the_members_not_at_a_table(
    tonight, players, access, push_service, django_capture_on_commit_callbacks
):
    watcher = players[6].user  # a member who is not playing tonight
    device = push_service.device("watcher")
    subscribe(watcher, device)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_draw(event=tonight, access=access)
    assert [p["title"] for p in device.received] == ["The draw for round 1 is out"]
    assert not Notification.objects.filter(kind="draw", user=players[0].user).exists()


def test_a_device_that_answers_410_or_404_is_forgotten(
    tonight, players, access, push_service, django_capture_on_commit_callbacks
):
    first, second = players[0].user, players[1].user
    gone, missing, alive = (push_service.device(n) for n in ("gone", "missing", "alive"))
    push_service.statuses["/push/gone"] = 410
    push_service.statuses["/push/missing"] = 404
    subscribe(first, gone)
    subscribe(first, alive)
    subscribe(second, missing)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_draw(event=tonight, access=access)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [alive.endpoint]
    assert len(alive.received) == 1
    sent = Notification.objects.get(user=first, kind="table")
    assert sent.status == "sent" and sent.outcome == {"push": 1, "email": 0, "removed": 1}


def test_a_push_service_that_fails_otherwise_keeps_the_device(
    tonight, players, access, push_service, django_capture_on_commit_callbacks
):
    flaky = push_service.device("flaky")
    push_service.statuses["/push/flaky"] = 503
    subscribe(players[0].user, flaky)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_draw(event=tonight, access=access)
    assert PushSubscription.objects.count() == 1
    assert Notification.objects.get(user=players[0].user, kind="table").status == "nothing"


def test_inside_quiet_hours_a_table_is_dropped_and_the_results_wait_for_the_morning(
    club, tonight, players, access, push_service, django_capture_on_commit_callbacks
):
    first = players[0].user
    device = push_service.device("first")
    subscribe(first, device)
    now = timezone.now().astimezone(club.zone)
    start = (now - dt.timedelta(hours=1)).time().replace(second=0, microsecond=0)
    end = (now + dt.timedelta(hours=2)).time().replace(second=0, microsecond=0)
    services.notify_settings_save(
        user=first,
        channels={"table": ["push"], "results": ["push", "email"]},
        quiet_start=start,
        quiet_end=end,
    )
    with django_capture_on_commit_callbacks(execute=True):
        drawn = rounds.round_draw(event=tonight, access=access)
    play_out(drawn)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_finish(round_=drawn, access=access)
    assert device.received == []
    assert not [m for m in mail.outbox if m.to == [first.email]]
    assert Notification.objects.get(user=first, kind="table").status == "dropped"
    held = Notification.objects.get(user=first, kind="results")
    assert held.status == "held"
    assert held.due_at.astimezone(club.zone).time() == end
    assert services.notifications_due() == []  # not before the quiet hours end

    after = held.due_at + dt.timedelta(minutes=1)
    assert held.pk in services.notifications_due(now=after)
    assert services.notification_send(notification_id=held.pk, now=after) == "sent"
    [payload] = device.received
    assert payload["title"] == "Tuesday night: the results"
    assert "Winner:" in payload["body"] and "You finished" in payload["body"]
    assert [m.subject for m in mail.outbox if m.to == [first.email]] == [payload["title"]]


def test_quiet_hours_over_midnight():
    row = NotifySettings(quiet_start=dt.time(22, 0), quiet_end=dt.time(7, 0))

    class Club:
        zone = dt.UTC

    late = dt.datetime(2026, 12, 5, 23, 30, tzinfo=dt.UTC)
    early = dt.datetime(2026, 12, 6, 6, 59, tzinfo=dt.UTC)
    day = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)
    morning = dt.datetime(2026, 12, 6, 7, 0, tzinfo=dt.UTC)
    assert services.quiet_until(row, Club, late) == morning
    assert services.quiet_until(row, Club, early) == morning
    assert services.quiet_until(row, Club, day) is None


def test_a_result_awaiting_acceptance_tells_the_sides_who_must_accept(
    tonight, players, access, push_service, django_capture_on_commit_callbacks
):
    devices = {}
    for player in players[:4]:
        devices[player.pk] = push_service.device(f"p{player.pk}")
        subscribe(player.user, devices[player.pk])
    drawn = rounds.round_draw(event=tonight, access=access)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(drawn)
    titles = {pk: [p["title"] for p in d.received] for pk, d in devices.items()}
    # Deals entered by no known side: every side must accept, so all four are asked once.
    assert all(t == ["A result awaits your acceptance"] for t in titles.values())
    payload = devices[players[0].pk].received[0]
    assert payload["url"] == "/me/"


def test_a_moved_fixture_tells_both_teams_by_email_by_default(
    club, division, teams, django_capture_on_commit_callbacks
):
    from clabber_league.leagues.models import TeamMember
    from clabber_league.scheduling.models import Fixture
    from tests.factories import PlayerFactory, UserFactory

    home, away = teams[0], teams[1]
    user = UserFactory(username="homeplayer")
    player = PlayerFactory(club=club, name="Home Player", user=user)
    TeamMember.objects.create(team=home, player=player, position=99)
    fixture = Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=home,
        away=away,
        date=dt.date(2026, 12, 10),
    )
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_move(fixture=fixture, date=dt.date(2026, 12, 17))
    [email] = mail.outbox
    assert email.to == [user.email]
    assert email.subject == f"Your fixture moved: {home.name} \u2013 {away.name}"
    assert "17" in email.body


def test_written_in_the_members_language(
    tonight, players, access, django_capture_on_commit_callbacks
):
    MemberProfile.objects.update_or_create(user=players[0].user, defaults={"language": "nl"})
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_draw(event=tonight, access=access)
    assert Notification.objects.get(user=players[0].user, kind="table").language == "nl"
    assert Notification.objects.get(user=players[1].user, kind="table").language == "en"


def test_a_rolled_back_write_tells_nobody(tonight, players, access, push_service):
    from django.db import transaction

    device = push_service.device("first")
    subscribe(players[0].user, device)

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        rounds.round_draw(event=tonight, access=access)
        raise Undo
    assert device.received == [] and not Notification.objects.exists()


def test_choices_are_checked_and_name_the_field(players):
    user = players[0].user
    with pytest.raises(services.NotifyError) as refused:
        services.notify_settings_save(
            user=user, channels={"table": ["pigeon"]}, quiet_start=dt.time(22, 0)
        )
    fields = {e["field"] for e in refused.value.errors}
    assert fields == {"table", "quiet_end"}
    assert not NotifySettings.objects.exists()


def test_a_subscription_must_be_a_push_endpoint_with_its_keys(players, settings):
    settings.CLABBER_PUSH_ALLOW_PRIVATE = False
    with pytest.raises(services.NotifyError) as refused:
        services.push_subscription_save(
            user=players[0].user, endpoint="http://127.0.0.1:8720/push/x", p256dh="", auth="!"
        )
    assert {e["field"] for e in refused.value.errors} == {"endpoint", "keys.p256dh", "keys.auth"}
    assert not PushSubscription.objects.exists()


def test_a_league_nights_report_tells_its_players_the_results(
    club, division, teams, push_service, django_capture_on_commit_callbacks
):
    from clabber_league.leagues.models import TeamMember
    from clabber_league.reports import services as reports
    from clabber_league.scheduling.models import Fixture
    from tests.factories import PlayerFactory, UserFactory

    mules, dads = teams
    user = UserFactory(username="mule")
    TeamMember.objects.create(
        team=mules, player=PlayerFactory(club=club, name="Mule", user=user), position=99
    )
    device = push_service.device("mule")
    subscribe(user, device)
    fixture = Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=mules,
        away=dads,
        date=dt.date(2026, 12, 3),
    )
    reports.report_settings_save(club=club, needs_approval=True)
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_forfeit(fixture=fixture, winner=mules)
    assert device.received == []  # the report waits for the secretary's approval
    from clabber_league.reports.models import Report

    report = Report.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        reports.report_approve(report=report, user=None)
    [payload] = device.received
    assert payload["title"] == f"{report.title}: the results"
    assert "Mules \u2013 Dads" in payload["body"] and "walkover" in payload["body"]
    assert payload["url"] == f"/clubs/{club.slug}/reports/{report.pk}/"


def test_the_settings_pages_test_button_reaches_the_members_devices(
    players, push_service, django_capture_on_commit_callbacks
):
    from django.test import Client

    user = players[0].user
    device = push_service.device("mine")
    subscribe(user, device)
    client = Client()
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/me/notifications/test/")
    assert answer.status_code == 302
    assert [p["body"] for p in device.received] == ["Notifications reach this device."]
