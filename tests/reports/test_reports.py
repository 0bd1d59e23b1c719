"""The night's report: written from a played night's numbers as its last round closes,
naming the right winner, best deal and comeback; published at once, or only once the
secretary approves when the club asks for that; editable; as plain text."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client, TestCase

from clabber_league.events.selectors import event_ranking
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.games import services as games
from clabber_league.games.models import Deal, Game
from clabber_league.reports import services
from clabber_league.reports.models import Report
from tests.events.conftest import deal, play_out

pytestmark = pytest.mark.django_db


def night_of(club, members, access, *, rounds_=1, name="Tuesday night"):
    night = event_services.event_create(
        club=club, name=name, date=dt.date(2026, 12, 1), rules="clabber", rounds=rounds_
    )
    for member in members[:8]:
        checkin.entry_check_in(event=night, player=member)
    return night


def finish(drawn, access):
    """The round (the night's last) closed; its report is written once that commits."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        rounds.round_finish(round_=drawn, access=access)


def play_round(drawn, first_table_deals=None):
    """Table 1 plays the deals given (then side A to the end); the others side A only."""
    for table in drawn.tables.select_related("game").order_by("number"):
        game = table.game
        for data in (first_table_deals or []) if table.number == 1 else []:
            games.deal_record(game_id=game.pk, data=data)
    play_out(drawn)


def test_the_report_of_a_played_night_names_the_winner_and_the_best_deal(club, members, access):
    night = night_of(club, members, access)
    drawn = rounds.round_draw(event=night, access=access)
    # Table 1 starts with side B far ahead (a comeback for side A, who then wins).
    behind = {"maker": "B", "trump": "hearts", "points": {"A": 10, "B": 142}, "last_trick": "B"}
    play_round(drawn, [behind, behind])
    finish(drawn, access)

    report = Report.objects.get(club=club, kind="night")
    assert report.published
    lines = event_ranking(night, to_member=False).lines
    winners = [line.name for line in lines if line.position == 1]
    if len(winners) == 1:
        assert f"{winners[0]} won Tuesday night with {lines[0].points} points" in report.body
    else:  # a shared first place is said so, never handed to one of them
        together = ", ".join(winners[:-1]) + " and " + winners[-1]
        expected = f"{together} shared first place in Tuesday night with {lines[0].points}"
        assert expected in report.body
    assert "8 players took part" in report.body
    # The best deal: the highest score one side made in one deal, and that side's players.
    deals = Deal.objects.filter(game__event_table__round__event=night).order_by(
        "game__event_table__number", "number"
    )
    best = max(deals, key=lambda d: max(d.score_a, d.score_b))  # the first of the highest
    side = "A" if best.score_a >= best.score_b else "B"
    names = " & ".join(s.player.name for s in best.game.seats.filter(side=side).order_by("seat"))
    points = max(best.score_a, best.score_b)
    assert f"The best deal: {names} scored {points} points in deal {best.number}" in report.body
    assert "The biggest comeback:" in report.body
    assert report.title.startswith("Tuesday night, ")


def test_a_night_where_every_winner_led_throughout_has_no_comeback(club, members, access):
    night = night_of(club, members, access)
    drawn = rounds.round_draw(event=night, access=access)
    play_out(drawn)
    finish(drawn, access)
    body = Report.objects.get(club=club).body
    assert "comeback" not in body
    # Every number it gives is one of the night's: the winner's points are the ranking's.
    assert str(event_ranking(night, to_member=False).lines[0].points) in body


def test_a_club_that_asks_for_approval_publishes_nothing_until_the_secretary_approves(
    club,
    members,
    access,
    secretary,
):
    club.is_public = True
    club.save(update_fields=["is_public"])
    services.report_settings_save(club=club, needs_approval=True)
    night = night_of(club, members, access)
    drawn = rounds.round_draw(event=night, access=access)
    play_out(drawn)
    finish(drawn, access)
    report = Report.objects.get(club=club)
    assert not report.published

    visitor = Client()
    base = f"/clubs/{club.slug}/reports/"
    assert report.title not in visitor.get(base).content.decode()
    assert visitor.get(f"{base}{report.pk}/").status_code == 404
    assert visitor.get(f"{base}{report.pk}.txt").status_code == 404

    boss = Client()
    boss.force_login(secretary)
    answer = boss.post(
        f"{base}{report.pk}/edit/",
        {"title": "Tuesday: a close one", "body": "Edited by hand.", "action": "publish"},
    )
    assert answer.status_code == 302
    report.refresh_from_db()
    assert report.published and report.approved_by == secretary
    text = visitor.get(f"{base}{report.pk}.txt")
    assert text["Content-Type"].startswith("text/plain")
    assert text.content.decode() == "Tuesday: a close one\n\nEdited by hand.\n"


def test_the_editor_refuses_an_empty_text_naming_the_field(club, members, access, secretary):
    night = night_of(club, members, access)
    drawn = rounds.round_draw(event=night, access=access)
    play_out(drawn)
    finish(drawn, access)
    report = Report.objects.get(club=club)
    with pytest.raises(services.ReportError) as refused:
        services.report_update(report=report, title="", body=" ", user=secretary)
    assert {e["field"] for e in refused.value.errors} == {"title", "body"}
    report.refresh_from_db()
    assert not report.edited
    services.report_update(report=report, title="Mine", body="My words.", user=secretary)
    services.report_reset(report=Report.objects.get(pk=report.pk), user=secretary)
    report.refresh_from_db()
    assert report.body == report.generated and report.title == report.generated_title


def test_only_club_admins_edit(club, members, access):
    from clabber_league.clubs.models import Role
    from tests.factories import MembershipFactory, UserFactory

    night = night_of(club, members, access)
    drawn = rounds.round_draw(event=night, access=access)
    play_out(drawn)
    finish(drawn, access)
    report = Report.objects.get(club=club)
    player = MembershipFactory(club=club, role=Role.PLAYER, user=UserFactory()).user
    client = Client()
    client.force_login(player)
    answer = client.post(
        f"/clubs/{club.slug}/reports/{report.pk}/edit/", {"title": "x", "body": "y"}
    )
    assert answer.status_code in (403, 404)
    report.refresh_from_db()
    assert report.title != "x"


def test_a_league_night_report_waits_for_every_result(club, division, teams):
    from clabber_league.scheduling.models import Fixture

    Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=teams[0],
        away=teams[1],
        date=dt.date(2026, 12, 3),
    )
    with pytest.raises(services.ReportError) as refused:
        services.report_for_league_night(club=club, date=dt.date(2026, 12, 3))
    assert refused.value.errors[0]["field"] == "date"
    with pytest.raises(services.ReportError):
        services.report_for_league_night(club=club, date=dt.date(2026, 12, 4))
    assert not Report.objects.exists()
    assert Game.objects.count() == 0


def test_a_league_night_is_reported_when_its_last_result_comes_in(
    club, division, teams, scorer, django_capture_on_commit_callbacks
):
    from clabber_league.games.models import Game
    from clabber_league.scheduling.models import Fixture
    from clabber_league.scheduling.services import fixture_changes
    from tests.factories import TeamFactory

    mules, dads = teams
    owls, bats = (
        TeamFactory(division=division, name="Owls"),
        TeamFactory(division=division, name="Bats"),
    )
    night = dt.date(2026, 12, 3)
    first = Fixture.objects.create(
        club=club, division=division, round_number=1, home=mules, away=dads, date=night
    )
    second = Fixture.objects.create(
        club=club, division=division, round_number=1, home=owls, away=bats, date=night
    )
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_forfeit(fixture=second, winner=bats)
    assert not Report.objects.exists()  # one result still to come

    seats = [
        mules.members.order_by("position")[0].player,
        dads.members.order_by("position")[0].player,
        mules.members.order_by("position")[1].player,
        dads.members.order_by("position")[1].player,
    ]
    game = games.game_start(
        club=club,
        division=division,
        sides={"A": mules, "B": dads},
        seats=seats,
        fixture=first,
        user=scorer,
    )
    with django_capture_on_commit_callbacks(execute=True):
        while game.status == Game.Status.IN_PROGRESS:
            games.deal_record(game_id=game.pk, data=deal())
            game = Game.objects.get(pk=game.pk)
    report = Report.objects.get(kind="league")
    assert report.published and report.date == night
    assert "Mules \u2013 Dads: 1\u20130" in report.body
    assert "Owls \u2013 Bats: 0\u20131 (walkover)" in report.body
    assert f"{division.name} after this night:\n1. Mules" in report.body


def test_a_cup_round_is_reported_once_its_last_tie_is_decided(
    club, teams, secretary, access, django_capture_on_commit_callbacks
):
    from clabber_league.cups.services import progress
    from clabber_league.cups.services.setup import cup_create, cup_draw
    from clabber_league.games.models import Game

    cup = cup_draw(cup=cup_create(club=club, name="Winter Cup", teams=list(teams)))
    tie = cup.ties.get()
    game = progress.tie_game_start(tie=tie)
    with django_capture_on_commit_callbacks(execute=True):
        while game.status == Game.Status.IN_PROGRESS:
            games.deal_record(game_id=game.pk, data=deal())  # side A (the home side) wins
            game = Game.objects.get(pk=game.pk)
    assert not Report.objects.exists()  # finished, not yet confirmed: the tie is open
    with django_capture_on_commit_callbacks(execute=True):
        games.game_confirm(game=game, user=secretary, access=access)
    report = Report.objects.get(kind="cup")
    home, away = tie.home.name, tie.away.name
    assert report.title == "Winter Cup, round 1"
    assert f"{home} \u2013 {away}: 1\u20130; {home} go through" in report.body
    assert "The best deal:" in report.body


def test_a_cup_round_whose_last_tie_is_a_walkover_is_reported(
    club, division, teams, secretary, access, django_capture_on_commit_callbacks
):
    from clabber_league.cups.services import progress
    from clabber_league.cups.services.setup import cup_create, cup_draw
    from clabber_league.games.models import Game
    from tests.factories import TeamFactory

    four = [*teams, TeamFactory(division=division, name="Owls"), TeamFactory(division=division)]
    cup = cup_draw(cup=cup_create(club=club, name="Spring Cup", teams=four))
    played, walked = cup.ties.filter(bracket="main", round=1).order_by("order")
    game = progress.tie_game_start(tie=played)
    with django_capture_on_commit_callbacks(execute=True):
        while game.status == Game.Status.IN_PROGRESS:
            games.deal_record(game_id=game.pk, data=deal())
            game = Game.objects.get(pk=game.pk)
        games.game_confirm(game=game, user=secretary, access=access)
    assert not Report.objects.exists()  # one tie of the round is still to come
    with django_capture_on_commit_callbacks(execute=True):
        progress.tie_walkover(tie=walked, absent="away", user=secretary)
    report = Report.objects.get(kind="cup")
    assert report.title == "Spring Cup, round 1"
    assert f"{walked.home.name} \u2013 {walked.away.name}" in report.body
    assert f"{played.home.name} \u2013 {played.away.name}: 1\u20130" in report.body


def test_writing_a_report_again_keeps_the_secretarys_edits_and_its_approval_state(
    club, members, access, secretary
):
    services.report_settings_save(club=club, needs_approval=True)
    night = night_of(club, members, access)
    drawn = rounds.round_draw(event=night, access=access)
    play_out(drawn)
    finish(drawn, access)
    report = services.report_update(
        report=Report.objects.get(), title="Our night", body="In our words.", user=secretary
    )
    again = services.report_for_night(event=night)
    assert again.pk == report.pk and Report.objects.count() == 1
    assert (again.title, again.body) == ("Our night", "In our words.\n")
    assert not again.published  # written again, still waiting for the approval
    assert "Tuesday night" in again.generated
