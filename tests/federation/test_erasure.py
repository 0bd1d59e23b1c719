"""Erasure leaves no copy of the name (issue 34): a player who played league games, a club
night, a cup and an inter-club competition, whose club's results were imported by the
federation, asks to be erased; afterwards no text column of any table holds their name or
email. Only their own login (the site account, which is theirs to delete) keeps the email
address: it is no longer linked to any player."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from clabber_league.clubs.access import access_for as club_access_for
from clabber_league.clubs.models import Player, Role
from clabber_league.clubs.services import player_update
from clabber_league.cups.models import Cup
from clabber_league.cups.services import progress, setup
from clabber_league.events.models import Round
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.exchange import reading
from clabber_league.exchange import services as exchange
from clabber_league.federation.access import access_for
from clabber_league.federation.models import FederationPlayer, Officer
from clabber_league.federation.services import player_erase
from clabber_league.members.services import invitation_create
from clabber_league.notify.models import Notification
from clabber_league.ranking import interclub
from clabber_league.reports.models import Report
from clabber_league.webhooks.models import SUBSCRIBABLE, Subscription
from tests.events.conftest import play_out
from tests.exchange.conftest import federation, link, secretary  # noqa: F401
from tests.factories import (
    DivisionFactory,
    FixtureFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)
from tests.standings.conftest import A_WINS, play

pytestmark = pytest.mark.django_db

HEADS_UP_100 = {"name": "Short", "base": "klaberjass", "options": {"target": 100}}
NAME = "Anneke Zwaluwstaart"
EMAIL = "anneke.zwaluw@example.org"


def holding(*needles: str, skip_login=None) -> set[str]:
    """Every ``app.Model.field`` whose stored text holds one of ``needles`` (any case):
    every CharField, TextField and JSONField of every model. The login ``skip_login``'s
    own account rows (its user row and email addresses) are left out."""
    found = set()
    lowered = [n.lower() for n in needles]
    for model in apps.get_models():
        fields = [
            f.name
            for f in model._meta.concrete_fields
            if isinstance(f, (models.CharField, models.TextField, models.JSONField))
        ]
        if not fields:
            continue
        rows = model._base_manager.all()
        if skip_login is not None and model is get_user_model():
            rows = rows.exclude(pk=skip_login.pk)
        if skip_login is not None and model._meta.label == "account.EmailAddress":
            rows = rows.exclude(user=skip_login)
        for values in rows.values_list(*fields):
            for field, value in zip(fields, values, strict=True):
                text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                if any(n in (text or "").lower() for n in lowered):
                    found.add(f"{model._meta.label}.{field}")
    return found


@pytest.fixture
def anneke(club, scorer, secretary, federation):  # noqa: F811
    """Anneke plays everywhere: two league games, a club night, a cup (a walkover noted in
    her name), an inter-club team; her club's fixture is imported by the federation; a
    webhook receives the club's results; she was invited by email."""
    Subscription.objects.create(
        club=club, url="https://example.org/hook", events=list(SUBSCRIBABLE), secret="s" * 32
    )
    login = UserFactory(username="anneke", email=EMAIL)
    MembershipFactory(club=club, role=Role.PLAYER, user=login)
    division = DivisionFactory(club=club, season__club=club, ruleset="clabber", name="Premier")
    home = TeamFactory(division=division, name="Aces")
    away = TeamFactory(division=division, name="Bells")
    her = home.members.order_by("position").first().player
    player_update(player=her, name=NAME)
    invitation_create(club=club, created_by=secretary, email=EMAIL, player=her, note=NAME)
    Player.objects.filter(pk=her.pk).update(user=login)  # she joined through it
    her.refresh_from_db()
    record = link(federation, her, "NKU-1")
    FederationPlayer.objects.filter(pk=record.pk).update(email=EMAIL)

    # League: two games of a fixture, confirmed.
    fixture = FixtureFactory(home=home, away=away, date=dt.date(2026, 9, 7), games_planned=2)
    for number in (1, 2):
        play(
            division,
            home,
            away,
            A_WINS,
            fixture=fixture,
            number=number,
            user=scorer,
            confirm_by=secretary,
        )
    # The federation imports the fixture's results file.
    officer = UserFactory(username="officer")
    Officer.objects.create(federation=federation, user=officer)
    exchange.result_file_import(
        federation=federation,
        content=reading.export_event(club=club, kind="fixture", pk=fixture.pk),
        user=officer,
    )

    # A club night of eight, two rounds.
    others = [PlayerFactory(club=club, name=f"Member {i:02d}") for i in range(1, 8)]
    night = event_services.event_create(
        club=club,
        user=secretary,
        name="Tuesday night",
        date=dt.date(2026, 12, 1),
        rules="clabber",
        rounds=2,
        seed="123456",
    )
    for player in [her, *others]:
        checkin.entry_check_in(event=night, player=player)
    access = club_access_for(club=club, user=secretary)
    for _ in range(2):
        play_out(rounds.round_draw(event=night, access=access))
    rounds.round_finish(round_=Round.objects.get(event=night, number=2), access=access)

    # A cup of players: she does not turn up.
    cup = setup.cup_draw(
        cup=setup.cup_create(
            club=club,
            name="Winter cup",
            rules=HEADS_UP_100,
            entrant_kind=Cup.Kind.PLAYERS,
            players=[her, others[0]],
        )
    )
    tie = cup.ties.get()
    progress.tie_walkover(tie=tie, absent="home" if tie.home.player_id == her.pk else "away")

    # An inter-club team of the federation's organiser space.
    Officer.objects.create(
        federation=federation, user=UserFactory(username="fed-admin"), role=Officer.Role.ADMIN
    )
    space = interclub.organiser_space_create(federation=federation)
    interclub.interclub_team_register(
        federation=federation,
        division=DivisionFactory(club=space.club, season__club=space.club, ruleset="clabber"),
        name="Stars",
        home_club=club,
        players=[record, link(federation, others[1], "NKU-2")],
    )
    # What the night's report and a notification said (as the tasks that run after the
    # commit write them; a test's transaction never commits).
    Report.objects.create(
        club=club,
        kind=Report.Kind.NIGHT,
        key=f"night:{night.pk}",
        event=night,
        title="Tuesday night",
        body=f"{NAME} won the night.",
        generated_title="Tuesday night",
        generated=f"{NAME} won the night with 1200 points; Member 01 second.",
    )
    Notification.objects.create(
        user=secretary,
        club=club,
        kind="draw",
        title="Round 1 is drawn",
        body=f"Table 1: {NAME} & Member 01 \u2013 Member 02 & Member 03",
        key=f"draw:{night.pk}:1",
        due_at=timezone.now(),
    )
    return record, login


def test_erasure_leaves_no_copy_of_the_name_or_the_email(anneke):
    record, login = anneke
    before = holding(NAME, EMAIL, skip_login=login)
    # The search finds the copies where they are (so finding none afterwards means it).
    assert {
        "clubs.Player.name",  # her row, and the organiser space's "Name (NKU-1)"
        "federation.FederationPlayer.name",
        "federation.FederationPlayer.email",
        "cups.Entrant.name",
        "cups.Tie.note",
        "cups.Tie.note_data",  # the walkover note's values, for the pages' languages
        "exchange.ImportedResult.player_name",
        "exchange.ResultFile.payload",
        "webhooks.Delivery.payload",
        "members.Invitation.email",
        "members.Invitation.note",
        "notify.Notification.body",
        "reports.Report.body",
        "reports.Report.generated",
    } <= before
    assert Player.objects.filter(name=f"{NAME} (NKU-1)").exists()

    player_erase(access=access_for(federation=record.federation, user=login), player=record)

    assert holding(NAME, EMAIL, skip_login=login) == set()
    # Results stay, under the anonymous name, in her club and in the organiser space.
    assert set(
        Player.objects.filter(federation_links__federation_player=record).values_list(
            "name", flat=True
        )
    ) == {"Player NKU-1"}
    assert not Player.objects.filter(user=login).exists()
    # Her login is her own account with the site: kept, linked to no player.
    login.refresh_from_db()
    assert login.email == EMAIL
