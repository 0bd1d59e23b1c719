"""One game per planned game: a fixture's game in progress is one of its planned games.

A one-game fixture whose game is still being played refuses a second game, on the New
game page, the API and the fixture's table link; two scorers starting it at the same
moment get exactly one game; ``standings_check`` reports a fixture with more games in
progress or played than planned (older data).
"""

import datetime as dt
import io
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.urls import reverse

from clabber_league.games import services, table_links
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture

from .conftest import made


@pytest.fixture
def fixture(club, division, teams):
    mules, dads = teams
    return Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=mules,
        away=dads,
        date=dt.date(2026, 10, 5),
        games_planned=1,
    )


def _seats(fixture):
    home = [m.player for m in fixture.home.members.order_by("position")]
    away = [m.player for m in fixture.away.members.order_by("position")]
    return [home[0], away[0], home[1], away[1]]


def _api_body(fixture) -> dict:
    return {
        "division": fixture.division_id,
        "fixture": fixture.pk,
        "sides": {"A": fixture.home_id, "B": fixture.away_id},
        "seats": [p.pk for p in _seats(fixture)],
    }


def _under_way(planned=1, live=1, played=0) -> str:
    return services.FIXTURE_UNDER_WAY.format(planned=planned, live=live, played=played)


@pytest.mark.django_db
def test_the_api_refuses_a_second_game_while_the_first_is_in_progress(
    club, fixture, scorer, api_client_for
):
    api = api_client_for(scorer)
    url = f"/api/clubs/{club.slug}/games/"
    first = api.post(url, _api_body(fixture), format="json")
    assert first.status_code == 201, first.content

    second = api.post(url, _api_body(fixture), format="json")

    assert second.status_code == 409
    assert second.json()["errors"] == [{"field": "fixture", "message": _under_way()}]
    assert Game.objects.filter(fixture=fixture).count() == 1


@pytest.mark.django_db
def test_the_page_refuses_a_second_game_while_the_first_is_in_progress(
    client, club, division, fixture, scorer
):
    client.force_login(scorer)
    url = reverse("games:new", kwargs={"club_slug": club.slug})
    url += f"?division={division.pk}&fixture={fixture.pk}"
    seats = {f"seat_{i}": p.pk for i, p in enumerate(_seats(fixture))}
    form = {**seats, "first_dealer": 0}
    assert client.post(url, form).status_code == 302

    again = client.post(url, form)

    assert again.status_code == 200  # the form again, with the reason
    assert _under_way() in again.context["form"].non_field_errors()
    assert Game.objects.filter(fixture=fixture).count() == 1


@pytest.mark.django_db
def test_the_fixtures_table_link_does_not_start_a_second_game(
    client, club, fixture, scorer, api_client_for
):
    link = table_links.fixture_link_issue(fixture=fixture, user=scorer)
    start = table_links.table_link_path(link) + "start/"
    assert client.get(start).status_code == 200  # the phone shows the seats form
    # ... while a scorer starts the fixture's game with a table card of its own
    started = api_client_for(scorer).post(
        f"/api/clubs/{club.slug}/games/", _api_body(fixture), format="json"
    )
    table_links.table_link_issue(game=Game.objects.get(pk=started.json()["id"]), user=scorer)

    seats = {f"seat_{i}": str(p.pk) for i, p in enumerate(_seats(fixture))}
    answer = client.post(start, {**seats, **{f"sub_{i}": "" for i in range(4)}, "first_dealer": 0})

    assert answer.status_code == 403  # told to scan the game's own card
    assert Game.objects.filter(fixture=fixture).count() == 1


@pytest.mark.django_db
def test_an_abandoned_game_frees_its_planned_game_and_two_planned_take_two(
    club, fixture, scorer, api_client_for
):
    api = api_client_for(scorer)
    url = f"/api/clubs/{club.slug}/games/"
    first = api.post(url, _api_body(fixture), format="json").json()
    services.game_abandon(game=Game.objects.get(pk=first["id"]), user=scorer)
    assert api.post(url, _api_body(fixture), format="json").status_code == 201

    Fixture.objects.filter(pk=fixture.pk).update(games_planned=2)
    assert api.post(url, {**_api_body(fixture), "number": 2}, format="json").status_code == 201
    third = api.post(url, {**_api_body(fixture), "number": 3}, format="json")
    assert third.status_code == 409
    assert third.json()["errors"][0]["message"] == _under_way(planned=2, live=2)


@pytest.mark.django_db
def test_a_finished_game_and_one_in_progress_both_count(club, fixture, scorer, api_client_for):
    Fixture.objects.filter(pk=fixture.pk).update(games_planned=2)
    api = api_client_for(scorer)
    url = f"/api/clubs/{club.slug}/games/"
    game_id = api.post(url, _api_body(fixture), format="json").json()["id"]
    for _ in range(4):
        services.deal_record(game_id=game_id, data=made("A", 142), user=scorer)
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    assert api.post(url, {**_api_body(fixture), "number": 2}, format="json").status_code == 201

    third = api.post(url, {**_api_body(fixture), "number": 3}, format="json")

    assert third.status_code == 409
    assert third.json()["errors"][0]["message"] == _under_way(planned=2, live=1, played=1)


@pytest.mark.django_db
def test_standings_check_reports_a_fixture_with_more_games_than_planned(
    club, division, fixture, scorer
):
    for _ in range(2):  # older data: two games for the one planned, written past the service
        Game.objects.create(club=club, division=division, fixture=fixture, rules="clabber")
    out = io.StringIO()

    with pytest.raises(CommandError):
        call_command("standings_check", stdout=out)

    assert f"fixture {fixture.pk} has 2 games in progress or played, 1 planned" in out.getvalue()
    Game.objects.filter(fixture=fixture).first().delete()
    out = io.StringIO()
    call_command("standings_check", stdout=out)
    assert "agree" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_two_scorers_starting_the_same_fixture_at_once_get_one_game(
    club, fixture, scorer, admin, api_client_for
):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises writers itself")
    link = table_links.fixture_link_issue(fixture=fixture, user=admin)
    users = [scorer, admin, scorer, admin]
    barrier = threading.Barrier(len(users) + 1)
    answers: list[int] = []
    errors: list[BaseException] = []
    seats = {f"seat_{i}": str(p.pk) for i, p in enumerate(_seats(fixture))}
    phone_form = {**seats, **{f"sub_{i}": "" for i in range(4)}, "first_dealer": "0"}

    def scorer_api(user) -> None:
        api = api_client_for(user)
        barrier.wait(timeout=30)
        answer = api.post(f"/api/clubs/{club.slug}/games/", _api_body(fixture), format="json")
        answers.append(answer.status_code)

    def phone() -> None:
        from django.test import Client

        barrier.wait(timeout=30)
        answer = Client().post(table_links.table_link_path(link) + "start/", phone_form)
        if answer.status_code == 200:  # the start form again, saying the game is under way
            assert "already started" in answer.content.decode(), answer.content[:2000]
            answers.append(409)
        else:
            answers.append(answer.status_code)

    def run(work, *args) -> None:
        try:
            work(*args)
        except BaseException as exc:  # asserted on below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(scorer_api, u)) for u in users]
    threads.append(threading.Thread(target=run, args=(phone,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert errors == []
    assert Game.objects.filter(fixture=fixture).count() == 1
    # one start won (201 from the API, or the phone sent on to deal entry); the others were
    # told the game is under way (409), or the phone was sent to the game that was started
    assert answers.count(201) + answers.count(302) >= 1
    assert set(answers) <= {201, 302, 403, 409}
