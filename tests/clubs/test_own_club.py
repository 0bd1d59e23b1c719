"""A club of its own (issue 30): signing up, creating a club (and waiting for the
operator's approval where the site asks for it), the club's backup (club admins only) and
deleting the club after typing its name."""

from __future__ import annotations

import json
import uuid
from html import unescape

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from clabber_league.clubs import services
from clabber_league.clubs.access import CLUB_PENDING, access_for
from clabber_league.clubs.models import Club, Membership, Player, Role
from clabber_league.core.errors import FORBIDDEN, THROTTLED
from clabber_league.games.models import Deal, Game
from clabber_league.leagues.models import HouseRules
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "table-talk-42"


def verified(username: str = "sec"):
    user = UserFactory(username=username)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_anyone_may_sign_up_and_is_sent_a_link_to_confirm_the_address(client):
    # An address of its own: allauth sends one link per address every 3 minutes, and a
    # shared cache (Redis) remembers an earlier run's.
    email = f"sec-{uuid.uuid4().hex[:8]}@example.org"
    response = client.post(
        reverse("account_signup"),
        {"username": "secretary", "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    address = EmailAddress.objects.get(email=email)
    assert not address.verified
    assert [m.to for m in mail.outbox] == [[email]]


def _forget_sign_ups() -> None:
    from allauth.core.internal.ratelimit import clear
    from django.test import RequestFactory

    clear(RequestFactory().post("/"), app="allauth.account", action="signup")


def test_sign_ups_from_one_address_are_limited(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/h/ip"}
    _forget_sign_ups()  # a shared cache (Redis) remembers an earlier run's
    codes = []
    for n in range(3):
        response = client.post(
            reverse("account_signup"),
            {
                "username": f"spam{n}",
                "email": f"spam{n}@example.org",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        codes.append(response.status_code)
        client.logout()
    _forget_sign_ups()
    assert codes == [302, 302, 429]


def test_a_club_needs_a_confirmed_email_address():
    user = UserFactory(username="unconfirmed")
    with pytest.raises(services.ClubError) as caught:
        services.club_create(user=user, name="Wednesday Whist")
    assert caught.value.kind == FORBIDDEN
    assert caught.value.errors[0]["message"] == str(services.CLUB_EMAIL_UNVERIFIED)
    assert not Club.objects.exists()


def test_the_creator_becomes_the_club_admin_of_a_club_with_its_zone_and_language():
    user = verified()
    club = services.club_create(
        user=user,
        name="  Amsterdamse   Klaverjasclub ",
        country="Netherlands",
        time_zone="Europe/Amsterdam",
        language="nl",
        ruleset="klaberjass",
    )
    assert (club.name, club.country, club.time_zone, club.language, club.ruleset) == (
        "Amsterdamse Klaverjasclub",
        "Netherlands",
        "Europe/Amsterdam",
        "nl",
        "klaberjass",
    )
    assert club.zone.key == "Europe/Amsterdam"
    assert club.is_approved
    assert Membership.objects.get(club=club, user=user).role == Role.ADMIN
    assert access_for(club=club, user=user).can("manage")


def test_unknown_zone_language_and_rule_set_are_refused_each_at_its_field():
    with pytest.raises(services.ClubError) as caught:
        services.club_create(
            user=verified(), name="X", time_zone="Mars/Olympus", language="xx", ruleset="snap"
        )
    assert {e["field"] for e in caught.value.errors} == {"time_zone", "language", "ruleset"}


def test_a_club_is_never_given_a_slug_that_is_a_page():
    club = services.club_create(user=verified(), name="New")
    assert club.slug != "new"
    assert reverse("club-home", args=[club.slug]) != reverse("club-new")


def test_one_account_creates_only_so_many_clubs_a_day(settings):
    settings.CLABBER_CLUBS_PER_DAY = 2
    user = verified()
    services.club_create(user=user, name="One")
    services.club_create(user=user, name="Two")
    with pytest.raises(services.ClubError) as caught:
        services.club_create(user=user, name="Three")
    assert caught.value.kind == THROTTLED
    assert Club.objects.count() == 2


def test_with_approval_required_a_new_club_can_be_read_but_not_changed_until_approved(
    client, settings
):
    settings.CLABBER_CLUB_APPROVAL = True
    user = verified()
    club = services.club_create(user=user, name="Pending Club")
    assert not club.is_approved
    access = access_for(club=club, user=user)
    assert access.can("read") and not access.can("manage") and not access.can("score")
    client.force_login(user)
    home = client.get(reverse("club-home", args=[club.slug]))
    assert home.status_code == 200
    assert "waits for the operator's approval" in unescape(home.content.decode())
    assert client.get(reverse("club-settings", args=[club.slug])).status_code == 403
    response = client.post(
        f"/api/clubs/{club.slug}/players/", {"name": "Ada"}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["errors"][0]["message"] == CLUB_PENDING
    services.club_approve(club=club)
    club.refresh_from_db()
    assert access_for(club=club, user=user).can("manage")
    assert client.get(reverse("club-settings", args=[club.slug])).status_code == 200


def test_the_operator_approves_pending_clubs_in_the_admin(client, settings):
    settings.CLABBER_CLUB_APPROVAL = True
    club = services.club_create(user=verified(), name="Waiting")
    operator = UserFactory(username="operator", is_staff=True, is_superuser=True)
    client.force_login(operator)
    response = client.post(
        reverse("admin:clubs_club_changelist"),
        {"action": "approve", "_selected_action": [club.pk]},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.is_approved


def test_creating_a_club_on_its_page_leads_to_the_guide(client):
    user = verified()
    client.force_login(user)
    page = client.get(reverse("club-new"))
    assert page.status_code == 200
    response = client.post(
        reverse("club-new"),
        {
            "name": "Evansville Clabber",
            "country": "USA",
            "time_zone": "America/Chicago",
            "language": "",
            "ruleset": "clabber",
            "house_rules": "Evansville house rules",
        },
    )
    club = Club.objects.get(name="Evansville Clabber")
    assert response.status_code == 302
    assert response["Location"] == reverse("club-home", args=[club.slug])
    assert HouseRules.objects.get(club=club).base == "clabber"
    home = client.get(response["Location"]).content.decode()
    assert "Getting the club going" in home
    assert reverse("club-members-add", args=[club.slug]) in home


def test_the_club_page_of_an_unconfirmed_account_says_to_confirm_first(client):
    client.force_login(UserFactory(username="fresh"))
    page = client.get(reverse("club-new")).content.decode()
    assert "Confirm your email address first" in page
    response = client.post(
        reverse("club-new"),
        {"name": "Too Soon", "time_zone": "America/Chicago", "ruleset": "clabber"},
    )
    assert response.status_code == 400
    assert not Club.objects.filter(name="Too Soon").exists()


def test_a_fresh_install_starts_with_create_your_club(client):
    page = client.get(reverse("home")).content.decode()
    assert "This site has no club yet" in page
    assert reverse("account_signup") in page
    ClubFactory(is_public=True)
    assert "This site has no club yet" not in client.get(reverse("home")).content.decode()


# --- the club's backup ----------------------------------------------------------------------


def test_a_club_admin_downloads_the_clubs_backup_without_password_hashes(client, admin, game):
    client.force_login(admin)
    response = client.get(reverse("club-backup", args=[game.club.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert lines[0]["club"] == game.club.slug
    users = [line["user"] for line in lines if "user" in line]
    assert users and all(u["password"] == "" for u in users)
    assert lines[-1]["end"] is True


@pytest.mark.parametrize("who", ["scorer", "viewer"])
def test_only_club_admins_download_the_backup(client, game, who, request):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("club-backup", args=[game.club.slug])).status_code == 403


def test_a_visitor_or_another_clubs_admin_gets_no_backup(client, game):
    url = reverse("club-backup", args=[game.club.slug])
    assert client.get(url).status_code == 302  # to the login page
    other = MembershipFactory(club=ClubFactory(), role=Role.ADMIN).user
    client.force_login(other)
    assert client.get(url).status_code == 404


# --- deleting the club ----------------------------------------------------------------------


def test_deleting_needs_the_clubs_name_typed(client, admin, game):
    client.force_login(admin)
    url = reverse("club-delete", args=[game.club.slug])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Some other club"})
    assert response.status_code == 400
    assert str(services.CLUB_DELETE_NAME) in unescape(response.content.decode())
    assert Club.objects.filter(pk=game.club.pk).exists()


def test_deleting_the_club_removes_all_its_rows_and_keeps_the_accounts(client, admin, game):
    from clabber_league.games import services as game_services
    from tests.games.conftest import made

    game_services.deal_record(game_id=game.pk, data=made("A", 142))
    other = ClubFactory()
    kept = Player.objects.create(club=other, name="Someone Else")
    client.force_login(admin)
    club = game.club
    response = client.post(reverse("club-delete", args=[club.slug]), {"name": club.name.upper()})
    assert response.status_code == 302
    assert not Club.objects.filter(pk=club.pk).exists()
    assert not Game.objects.filter(club_id=club.pk).exists()
    assert not Deal.objects.exists()
    assert not Player.objects.filter(club_id=club.pk).exists()
    assert Player.objects.filter(pk=kept.pk).exists()
    admin.refresh_from_db()  # the account stays


@pytest.mark.parametrize("who", ["scorer", "viewer"])
def test_only_club_admins_delete_the_club(client, game, who, request):
    client.force_login(request.getfixturevalue(who))
    url = reverse("club-delete", args=[game.club.slug])
    assert client.post(url, {"name": game.club.name}).status_code == 403
    assert Club.objects.filter(pk=game.club.pk).exists()


# --- the guide ------------------------------------------------------------------------------


def test_the_guide_ticks_each_step_and_leaves_once_all_are_done(client):
    from clabber_league.events.services.events import event_create
    from tests.factories import DivisionFactory, FixtureFactory, SeasonFactory, TeamFactory

    user = verified()
    club = services.club_create(user=user, name="Step By Step", ruleset="klaberjass")
    client.force_login(user)
    url = reverse("club-home", args=[club.slug])

    def steps() -> dict[str, bool]:
        response = client.get(url)
        guide = response.context["guide"]
        return {s["key"]: s["done"] for s in guide} if response.context["show_guide"] else {}

    assert steps() == dict.fromkeys(
        ["members", "season", "division", "teams", "schedule", "night"], False
    )
    season = SeasonFactory(club=club)
    division = DivisionFactory(season=season)
    page = client.get(reverse("scheduling:season", args=[club.slug, season.slug]))
    assert page.context["division_form"]["ruleset"].value() == "klaberjass"  # the club's
    home, away = TeamFactory(division=division), TeamFactory(division=division)
    done = steps()
    assert done["members"] and done["season"] and done["division"] and done["teams"]
    assert not done["schedule"]
    assert (
        reverse("scheduling:setup", args=[club.slug, division.pk])
        in client.get(url).content.decode()
    )
    FixtureFactory(home=home, away=away)
    event_create(club=club, user=user, name="Club night", date=season.start_date, rules="clabber")
    assert steps() == {}  # every step done: the guide steps aside
    again = client.get(url + "?guide=1")
    assert again.context["show_guide"]
