"""A cup's random draw nobody can steer (issue 29): its seed is the server's, never typed;
a play-off commits to it (SHA-256) while its league stage is played and shows it once the
entrants are drawn; seeding again reuses it instead of re-rolling the draw."""

from __future__ import annotations

import hashlib

import pytest
from rest_framework.test import APIClient

from clabber_league.cups import bracket
from clabber_league.cups.api import SEED_TYPED
from clabber_league.cups.models import Cup
from clabber_league.cups.services import setup

from .builders import round_robin

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(admin):
    client = APIClient()
    client.force_authenticate(admin)
    return client


def _url(club, tail=""):
    return f"/api/clubs/{club.slug}/cups/{tail}"


def test_a_seed_typed_by_the_admin_is_refused(api, club, league):
    _, teams = league
    body = {"name": "K", "teams": [t.pk for t in teams], "seeding": "random", "seed_text": "ab1"}
    answer = api.post(_url(club), body, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"] == [{"field": "seed_text", "message": SEED_TYPED}]

    made = api.post(_url(club), {**body, "seed_text": ""}, format="json").json()
    again = api.post(_url(club, f"{made['id']}/seed/"), {"seed_text": "ab1"}, format="json")
    assert again.status_code == 400


def test_seeding_again_reuses_the_committed_seed(api, club, league):
    _, teams = league
    body = {"name": "K", "teams": [t.pk for t in teams], "seeding": "random"}
    cup = api.post(_url(club), body, format="json").json()
    seed = cup["seed_text"]
    assert len(seed) == 32 and hashlib.sha256(seed.encode()).hexdigest() == cup["seed_hash"]
    assert cup["draw_algorithm"] == bracket.ALGORITHM
    order = [e["name"] for e in cup["entrants"]]
    # Anyone repeats it: the entrants by id, shuffled by the published seed.
    by_id = [t.name for t in sorted(teams, key=lambda t: t.pk)]
    assert order == bracket.random_seeding(by_id, seed)
    for _ in range(3):  # no re-rolling until the draw suits
        again = api.post(_url(club, f"{cup['id']}/seed/"), {"seeding": "random"}, format="json")
        assert again.status_code == 200
        assert again.json()["seed_text"] == seed
        assert [e["name"] for e in again.json()["entrants"]] == order


def test_a_play_off_shows_only_the_hash_until_its_entrants_are_known(api, club, league):
    division, teams = league
    round_robin(division, teams[:4])
    made = api.post(
        _url(club), {"name": "Play-offs", "divisions": [division.pk], "top": 4}, format="json"
    ).json()
    assert made["status"] == "waiting"
    assert made["seed_text"] is None and len(made["seed_hash"]) == 64
    # Not in the club's rows either (its backup holds them all): only a nonce.
    cup = Cup.objects.get(pk=made["id"])
    assert cup.seed_text == "" and cup.seed_nonce
    assert hashlib.sha256(setup.cup_seed_of(cup).encode()).hexdigest() == made["seed_hash"]
