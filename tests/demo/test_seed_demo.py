"""seed_demo (issue 10) never takes over or resets an existing account, so ``make run``
restarting keeps a changed password and its sessions."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clabber_league.clubs.models import Club, Membership
from clabber_league.demo.management.commands.seed_demo import DEMO_PASSWORD

pytestmark = pytest.mark.django_db


def test_a_second_run_keeps_a_changed_password_and_the_session(client):
    call_command("seed_demo", stdout=io.StringIO())
    scorer = get_user_model().objects.get(username="scorer")
    scorer.set_password("my-own-secret-77")
    scorer.save()
    client.force_login(scorer)
    call_command("seed_demo", stdout=io.StringIO())  # make run again
    scorer.refresh_from_db()
    assert scorer.check_password("my-own-secret-77")
    assert client.get("/api/whoami/").json() == {"username": "scorer"}  # still logged in


def test_an_existing_account_called_admin_is_not_taken_over(capsys):
    User = get_user_model()
    real = User.objects.create_user("admin", password="the-real-one-42")
    call_command("seed_demo")
    real.refresh_from_db()
    assert real.check_password("the-real-one-42")
    assert not real.check_password(DEMO_PASSWORD)
    assert not real.is_staff and not real.is_superuser
    club = Club.objects.get(slug="evansville")
    assert not Membership.objects.filter(club=club, user=real).exists()
    assert "admin / (its own password" in capsys.readouterr().out
