"""The secretary's pages of a club night: the list, a new night and its settings, the
night's page with check-in, the draw, the tables' links and the end of a round. Writes need
a club admin; a scorer or viewer reads."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clabber_league.clubs.models import Role
from clabber_league.events.models import Entry, Event, Round, Series
from clabber_league.events.services import checkin
from clabber_league.events.views import NO_SUCH_PLAYER
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory

from .conftest import play_out

pytestmark = pytest.mark.django_db


def _url(name, club, **kw):
    return reverse(f"events:{name}", kwargs={"club_slug": club.slug, **kw})


def _new_night_form(**fields):
    base = {
        "name": "Tuesday night",
        "date": "2026-12-08",
        "kind": "night",
        "rules": "clabber",
        "format": "individual",
        "movement": "mitchell",
        "rounds": "3",
        "round_kind": "game",
        "sit_out_rule": "average",
        "sit_out_score": "0",
        "entry_fee": "2.50",
        "prize_rule": "per_four",
        "hick_stake": "0",
        "series": "",
    }
    base.update(fields)
    return base


def test_the_secretary_creates_a_night_with_its_fee_in_cents(client, club, secretary):
    client.force_login(secretary)
    assert client.get(_url("new", club)).status_code == 200
    response = client.post(_url("new", club), _new_night_form())
    event = Event.objects.get()
    assert response.status_code == 302
    assert response["Location"].startswith(_url("detail", club, pk=event.pk))
    assert (
        event.entry_fee_cents == 250 and event.rules == "clabber" and event.created_by == secretary
    )


def test_a_bad_night_shows_the_message_beside_its_field(client, club, secretary):
    client.force_login(secretary)
    response = client.post(_url("new", club), _new_night_form(round_kind="deals"))
    assert response.status_code == 400
    assert "round_deals" in response.context["form"].errors
    assert not Event.objects.exists()


def test_house_rules_of_the_club_are_a_nights_rules(client, club, secretary):
    from clabber_league.leagues.models import HouseRules

    house = HouseRules.objects.create(
        club=club, name="Short game", base="clabber", options={"target": 300}
    )
    client.force_login(secretary)
    client.post(_url("new", club), _new_night_form(rules=f"house:{house.pk}"))
    assert Event.objects.get().rules == house.as_rules_data()


def test_a_series_is_created_from_the_list(client, club, secretary):
    client.force_login(secretary)
    response = client.post(
        _url("series-new", club),
        {"name": "Winter", "method": "best", "best_of": "6", "min_attendance": "5"},
    )
    assert response.status_code == 302
    assert Series.objects.get().best_of == 6
    assert "Winter" in client.get(_url("index", club)).content.decode()


def test_settings_that_contradict_a_drawn_round_are_refused_on_the_page(
    client, night, members, secretary
):
    for p in members[:4]:
        checkin.entry_check_in(event=night, player=p)
    client.force_login(secretary)
    client.post(_url("draw", night.club, pk=night.pk))
    response = client.post(
        _url("edit", night.club, pk=night.pk),
        _new_night_form(rules="klaberjass-4", name="Tuesday night", date="2026-12-01"),
    )
    assert response.status_code == 400
    assert response.context["form"].errors["rules"]
    night.refresh_from_db()
    assert night.rules == "clabber"


def test_one_tap_checks_a_member_in_and_twice_says_so(client, night, members, secretary):
    client.force_login(secretary)
    url = _url("check-in", night.club, pk=night.pk)
    client.post(url, {"player": members[0].pk})
    response = client.post(url, {"player": members[0].pk}, follow=True)
    assert checkin.CHECKED_IN_TWICE.format(name=members[0].name) in response.content.decode()
    assert Entry.objects.filter(event=night).count() == 1


def test_a_walk_in_is_added_by_name(client, night, secretary):
    client.force_login(secretary)
    client.post(_url("walk-in", night.club, pk=night.pk), {"name": "Wanda Walk-in"})
    page = client.get(_url("detail", night.club, pk=night.pk)).content.decode()
    assert "Wanda Walk-in" in page
    assert Entry.objects.get().player.name == "Wanda Walk-in"


def test_a_player_of_another_club_cannot_be_ticked_in(client, night, secretary):
    stranger = PlayerFactory(club=ClubFactory())
    client.force_login(secretary)
    response = client.post(
        _url("check-in", night.club, pk=night.pk), {"player": stranger.pk}, follow=True
    )
    assert str(NO_SUCH_PLAYER) in response.content.decode()
    assert not Entry.objects.exists()


def test_the_check_in_list_is_paged_and_searched(client, club, night, members, secretary):
    for i in range(60):
        PlayerFactory(club=club, name=f"Zed {i:02d}")
    client.force_login(secretary)
    page = client.get(_url("detail", club, pk=night.pk))
    assert len(page.context["others"]) == 40
    found = client.get(_url("detail", club, pk=night.pk), {"q": "member 1"})
    names = [p.name for p in found.context["others"]]
    assert names and all(n.startswith("Member 1") for n in names)


def test_the_draw_lays_tables_linked_to_their_deal_entry(client, night, members, secretary):
    for p in members[:13]:
        checkin.entry_check_in(event=night, player=p)
    client.force_login(secretary)
    response = client.post(_url("draw", night.club, pk=night.pk), follow=True)
    html = response.content.decode()
    round_ = Round.objects.get(event=night)
    assert round_.status == Round.Status.PLAYING
    for table in round_.tables.all():
        deal_url = reverse(
            "games:deal-new", kwargs={"club_slug": night.club.slug, "pk": table.game_id}
        )
        assert deal_url in html
    assert round_.seed in html  # the seed it was drawn from, shown once drawn


def test_the_next_draw_waits_for_the_tables_then_finishes_the_round(
    client, night, members, secretary
):
    for p in members[:8]:
        checkin.entry_check_in(event=night, player=p)
    client.force_login(secretary)
    client.post(_url("draw", night.club, pk=night.pk))
    refused = client.post(_url("draw", night.club, pk=night.pk), follow=True)
    assert "still has 2 game(s) in play" in refused.content.decode()
    first = Round.objects.get(event=night)
    play_out(first)
    client.post(_url("draw", night.club, pk=night.pk))
    first.refresh_from_db()
    assert first.status == Round.Status.FINISHED
    assert Round.objects.filter(event=night).count() == 2
    page = client.get(_url("detail", night.club, pk=night.pk)).content.decode()
    assert "The night's ranking" in page


def test_readers_see_the_night_but_not_the_secretarys_forms(client, night, members):
    for p in members[:4]:
        checkin.entry_check_in(event=night, player=p)
    viewer = MembershipFactory(club=night.club, role=Role.SCORER).user
    client.force_login(viewer)
    page = client.get(_url("detail", night.club, pk=night.pk))
    assert page.status_code == 200
    assert "Walk-in" not in page.content.decode()
    assert client.post(_url("draw", night.club, pk=night.pk)).status_code == 403
    assert client.get(_url("new", night.club)).status_code == 403
    assert not Round.objects.exists()


def test_another_clubs_night_is_not_found(client, night, secretary):
    other = ClubFactory()
    MembershipFactory(club=other, user=secretary, role=Role.ADMIN)
    client.force_login(secretary)
    assert client.get(_url("detail", other, pk=night.pk)).status_code == 404


def test_a_pair_is_entered_by_names_at_a_pairs_night(client, club, secretary):
    client.force_login(secretary)
    client.post(_url("new", club), _new_night_form(format="pairs", movement="swiss"))
    event = Event.objects.get()
    assert event.movement == "swiss"
    client.post(_url("pair", club, pk=event.pk), {"name_1": "Ann", "name_2": "Bob"})
    page = client.get(_url("detail", club, pk=event.pk)).content.decode()
    assert "Ann &amp; Bob" in page
    assert event.pairs.count() == 1
