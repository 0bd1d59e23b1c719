"""What a cup writes for people to read (a tie's note, how the knockout was seeded, why a
seed, the build's message, where a side comes from) is shown in the reader's language;
the API keeps the English. The new sentences are not in the catalogs yet (the lead
translates them), so the stand-in catalog ``_shouting`` (every template in capitals, its
placeholders kept) shows that a page rebuilds each one from its template."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.core import i18n
from clabber_league.cups.models import Cup, Stage, Tie
from clabber_league.cups.services import progress, setup
from clabber_league.cups.tasks import build_knockout
from tests.factories import PlayerFactory

from .builders import finish_by_forfeits, round_robin

pytestmark = pytest.mark.django_db

DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}


def _shouting(monkeypatch):
    """A stand-in catalog: every message in capitals (its placeholders kept)."""
    monkeypatch.setattr(
        i18n, "gettext", lambda text: re.sub(r"[^{}]+(?=\{|$)", lambda m: m[0].upper(), text)
    )


def _page(client, name, *args):
    answer = client.get(reverse(name, args=args), **DUTCH)
    assert answer.status_code == 200
    return answer.content.decode()


def _api(admin):
    api = APIClient()
    api.force_authenticate(admin)
    return api


def test_a_walkover_note_is_shown_in_the_readers_language_and_a_typed_one_as_typed(
    client, admin, club, league, monkeypatch
):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="Beker", teams=teams[:4]))
    first, second = cup.ties.filter(round=1).order_by("order")
    progress.tie_walkover(tie=first, absent="away")
    progress.tie_walkover(tie=second, absent="home", note="Bus kwam niet")
    first.refresh_from_db()
    assert first.note == f"Walkover: {first.loser.name} did not play."
    _shouting(monkeypatch)
    client.force_login(admin)
    tie_page = _page(client, "cups:tie", club.slug, cup.pk, first.pk)
    bracket = _page(client, "cups:bracket", club.slug, cup.pk)
    for page in (tie_page, bracket):
        assert f"WALKOVER: {first.loser.name} DID NOT PLAY." in page
    assert "Bus kwam niet" in bracket  # the secretary's own words, as typed
    answer = _api(admin).get(f"/api/clubs/{club.slug}/cups/{cup.pk}/ties/{first.pk}/")
    assert answer.json()["note"] == f"Walkover: {first.loser.name} did not play."


def test_a_tables_notes_keep_their_names_in_every_language(client, admin, club, monkeypatch):
    players = [PlayerFactory(club=club, name=f"P{i}") for i in range(1, 10)]
    cup = setup.cup_draw(
        cup=setup.cup_create(
            club=club,
            name="Drieën",
            rules="klaberjass-3",
            entrant_kind=Cup.Kind.PLAYERS,
            players=players,
        )
    )
    table = cup.ties.get(key="M1-2")  # seeds 2, 5, 8
    progress.tie_walkover(tie=table, absent="away")
    table.refresh_from_db()
    assert table.note == "P5 did not turn up: P2 and P8 play heads-up (klaberjass)."
    _shouting(monkeypatch)
    client.force_login(admin)
    page = _page(client, "cups:tie", club.slug, cup.pk, table.pk)
    # The sentence and the nested "{first} and {second}" both from the catalog.
    assert "P5 DID NOT TURN UP: P2 AND P8 PLAY HEADS-UP (klaberjass)." in page


def test_a_level_game_note_is_shown_in_the_readers_language(
    client, admin, club, league, monkeypatch
):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="Beker", teams=teams[:2]))
    tie = cup.ties.get()
    # As ``_decide_from_games`` writes it after a level game.
    from clabber_league.core import messages
    from clabber_league.rules.errors import msg

    note = msg(progress.TIED_GAME, number=1)
    Tie.objects.filter(pk=tie.pk).update(note=str(note), note_data=messages.part(note))
    tie.refresh_from_db()
    dutch = {progress.TIED_GAME: "Partij {number} eindigde gelijk: speel een beslissende partij."}
    monkeypatch.setattr(i18n, "gettext", lambda text: dutch.get(text, text))
    client.force_login(admin)
    page = _page(client, "cups:tie", club.slug, cup.pk, tie.pk)
    assert "Partij 1 eindigde gelijk: speel een beslissende partij." in page


def test_a_play_offs_seeding_notes_seeds_and_message_are_in_the_readers_language(
    client, admin, club, league, monkeypatch, django_capture_on_commit_callbacks
):
    division, teams = league
    fixtures = round_robin(division, teams[:5])
    cup = setup.cup_create(club=club, name="Play-offs", divisions=[division], top=4)
    with django_capture_on_commit_callbacks():
        finish_by_forfeits(fixtures, [teams[2], teams[0], teams[4], teams[1], teams[3]])
    build_knockout(cup.stages.get(kind=Stage.Kind.LEAGUE).pk)
    first = cup.entrants.get(seed=1)
    assert first.note == "Place 1 in Premier, 8 match points, game difference +4"
    league_stage = cup.stages.get(kind=Stage.Kind.LEAGUE)
    assert league_stage.message == "4 teams went through; the bracket is drawn."
    _shouting(monkeypatch)
    client.force_login(admin)
    page = _page(client, "cups:detail", club.slug, cup.pk)
    assert "PLACE 1 IN Premier, 8 MATCH POINTS, GAME DIFFERENCE +4" in page
    assert "THE TOP 4 OF EACH DIVISION GO THROUGH." in page
    assert "4 TEAMS WENT THROUGH; THE BRACKET IS DRAWN." in page
    # The API's English, unchanged by the reader's language.
    body = _api(admin).get(f"/api/clubs/{club.slug}/cups/{cup.pk}/", **DUTCH).json()
    knockout = next(s for s in body["stages"] if s["kind"] == "knockout")
    assert knockout["notes"][0].startswith("The top 4 of each division go through.")
    assert body["entrants"][0]["note"] == first.note


def test_a_failed_builds_reasons_are_in_the_readers_language(
    client, admin, club, league, monkeypatch
):
    division, teams = league
    round_robin(division, teams[:4])
    cup = setup.cup_create(club=club, name="Play-offs", divisions=[division], top=4)
    stage = cup.stages.get(kind=Stage.Kind.LEAGUE)
    Stage.objects.filter(pk=stage.pk).update(build=Stage.Build.QUEUED)
    build_knockout(stage.pk)  # the stage is not finished: the task records why
    stage.refresh_from_db()
    assert stage.build == Stage.Build.FAILED
    assert stage.message.startswith("Premier is not finished: 6 fixture(s) have no result yet")
    _shouting(monkeypatch)
    client.force_login(admin)
    page = _page(client, "cups:detail", club.slug, cup.pk)
    # The reason, and the reason within it, each from its template.
    assert "Premier IS NOT FINISHED: 6 FIXTURE(S) HAVE NO RESULT YET. THE KNOCKOUT" in page


def test_random_and_rating_seeding_notes_are_in_the_readers_language(
    client, admin, club, league, monkeypatch
):
    _, teams = league
    drawn = setup.cup_create(
        club=club, name="Loting", teams=teams[:4], seeding=Cup.Seeding.RANDOM, seed_text="abc1"
    )
    rated = setup.cup_create(club=club, name="Rating", teams=teams[:4], seeding="ratings")
    assert rated.entrants.first().note == "no rating yet"
    _shouting(monkeypatch)
    client.force_login(admin)
    assert "SEEDED BY A RANDOM DRAW FROM SEED &#x27;abc1&#x27; (PYTHON" in _page(
        client, "cups:detail", club.slug, drawn.pk
    )
    page = _page(client, "cups:detail", club.slug, rated.pk)
    assert "SEEDED BY RATING (OPENSKILL" in page and "NO RATING YET" in page


def test_where_a_side_comes_from_is_in_dutch(client, admin, club, league):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="Beker", teams=teams[:3]))
    final = cup.ties.get(key="M2-1")
    assert final.away_from == "Winner of M1-2"  # the API's English
    client.force_login(admin)
    for page in (
        _page(client, "cups:bracket", club.slug, cup.pk),
        _page(client, "cups:detail", club.slug, cup.pk),
        _page(client, "cups:tie", club.slug, cup.pk, final.pk),
    ):
        assert "Winnaar van M1-2" in page and "Winner of M1-2" not in page


def test_rows_written_before_texts_kept_templates_are_shown_as_before(
    client, admin, club, league, monkeypatch
):
    """An old row (English text only) is shown as it is, translated when the catalog has
    that very text; the migration gives the known English forms their templates."""
    import importlib

    from django.apps import apps

    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="Oud", teams=teams[:4]))
    knockout = cup.stages.get(kind=Stage.Kind.KNOCKOUT)
    tie = cup.ties.get(key="M1-1")
    progress.tie_walkover(tie=tie, absent="away")
    tie.refresh_from_db()
    old_random = (
        "Seeded by a random draw from seed 'xyz9' (Python's random.Random(seed).shuffle of "
        "the entrants in order of their team ids): anyone can repeat it."
    )
    Stage.objects.filter(pk=knockout.pk).update(
        notes=["Seeded in the order the entrants were given.", old_random, "Typed by hand."],
        notes_data=[],
    )
    Tie.objects.filter(pk=tie.pk).update(note_data={})
    cup.entrants.filter(seed=1).update(
        note="1st (shared) in Premier, 14 match points, game difference +3", note_data=[]
    )
    client.force_login(admin)
    page = _page(client, "cups:detail", club.slug, cup.pk)
    assert "Geplaatst in de volgorde waarin de deelnemers zijn opgegeven." in page
    assert "Typed by hand." in page and "1st (shared) in Premier" in page

    migration = importlib.import_module(
        "clabber_league.cups.migrations.0006_old_texts_kept_as_templates"
    )
    migration.forwards(apps, None)
    _shouting(monkeypatch)
    page = _page(client, "cups:detail", club.slug, cup.pk)
    assert "SEEDED BY A RANDOM DRAW FROM SEED &#x27;xyz9&#x27;" in page
    assert "TYPED BY HAND." in page  # a plain text: the catalog's own, if it has it
    assert "PLACE 1 (SHARED) IN Premier, 14 MATCH POINTS, GAME DIFFERENCE +3" in page
    tie_page = _page(client, "cups:tie", club.slug, cup.pk, tie.pk)
    assert f"WALKOVER: {tie.loser.name} DID NOT PLAY." in tie_page
