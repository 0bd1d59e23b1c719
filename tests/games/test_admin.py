"""The Django admin's write path (issue 10): results are read-only there, deals and games
cannot be deleted, a team or division with games cannot be moved, and standings_check
reports one that was moved anyway."""

import io

import pytest
from django.core.management import CommandError, call_command

from clabber_league.games import services
from clabber_league.games.models import Deal, Game
from tests.factories import DivisionFactory, UserFactory

from .conftest import made

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def finished(game, scorer):
    for _ in range(4):
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    game.refresh_from_db()
    return game


def test_deals_and_games_cannot_be_deleted_in_the_admin(client, superuser, finished):
    client.force_login(superuser)
    deal = finished.deals.first()
    assert client.post(f"/admin/games/deal/{deal.pk}/delete/", {"post": "yes"}).status_code == 403
    assert (
        client.post(f"/admin/games/game/{finished.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    bulk = client.post(
        "/admin/games/deal/",
        {"action": "delete_selected", "_selected_action": [deal.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert Deal.objects.filter(pk=deal.pk).exists()
    assert Game.objects.filter(pk=finished.pk).exists()


def test_a_games_result_is_read_only_in_the_admin(client, superuser, finished):
    client.force_login(superuser)
    page = client.get(f"/admin/games/game/{finished.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    for name in ("status", "winner", "score_a", "score_b", "fixture", "division"):
        assert name not in form.fields, name
    client.post(
        f"/admin/games/game/{finished.pk}/change/",
        {"number": 1, "played_on": "2026-09-07", "status": "confirmed", "winner": "B"},
    )
    finished.refresh_from_db()
    assert (finished.status, finished.winner) == (Game.Status.FINISHED, "A")


def test_a_team_with_games_keeps_its_division_in_the_admin(client, superuser, finished, teams):
    client.force_login(superuser)
    team = teams[0]
    page = client.get(f"/admin/leagues/team/{team.pk}/change/")
    assert "division" not in page.context["adminform"].form.fields
    assert (
        "season"
        not in client.get(f"/admin/leagues/division/{team.division_id}/change/")
        .context["adminform"]
        .form.fields
    )


def test_standings_check_reports_a_team_moved_after_its_games(finished, teams):
    team = teams[0]
    other = DivisionFactory(club=team.club, season=team.division.season)
    type(team).objects.filter(pk=team.pk).update(division=other)  # as a raw update would
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("standings_check", stdout=out)
    assert f"team {team.pk} has games here but now plays in division {other.pk}" in out.getvalue()
