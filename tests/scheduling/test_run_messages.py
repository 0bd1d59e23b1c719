"""A schedule run's message and notes are written once, by the worker, in English; the
run page shows them in its reader's language, rebuilt from each sentence's template and
values, with dates in that language (issue 33). The API keeps the English text."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from clabber_league.core import i18n, messages
from clabber_league.scheduling.services.generation import PLANNED
from tests.clients import api_client

from .conftest import configure

pytestmark = pytest.mark.django_db


def _shouting(monkeypatch):
    """A stand-in catalog: every message in capitals (its placeholders kept), so a
    translated one shows."""
    monkeypatch.setattr(
        i18n, "gettext", lambda text: re.sub(r"[^{}]+(?=\{|$)", lambda m: m[0].upper(), text)
    )


def test_a_runs_notes_are_rebuilt_from_their_translated_templates(
    division, teams, hall, generate, monkeypatch
):
    configure(division, venues=[hall])  # 2 tables, 3 fixtures a round: some move
    run = generate(division)
    moved = next(n for n in run.notes if n["kind"] == "night_overflow")
    assert moved["text"].startswith("Round 1: 1 fixture(s) moved to Mon 14 Sep 2026")
    _shouting(monkeypatch)
    with translation.override("de"):
        [shown] = messages.notes_shown([moved])
        german_day = date_format(datetime.date(2026, 9, 14), i18n.local_format("D j M Y"))
    # The template comes from the catalog; the values, and the date in German, do not.
    assert german_day.startswith("Mo")
    assert shown["text"].startswith(f"ROUND 1: 1 FIXTURE(S) MOVED TO {german_day}")
    assert shown["kind"] == "night_overflow"


def test_a_runs_message_is_shown_in_the_readers_language_and_the_api_keeps_english(
    client, club, secretary, division, teams, hall, generate, monkeypatch
):
    configure(division, venues=[hall])
    run = generate(division)
    assert run.message.startswith("15 fixtures planned, Mon 7 Sep 2026 to ")
    assert run.message_data["parts"][0]["template"] == PLANNED
    _shouting(monkeypatch)
    with translation.override("de"):
        german_day = date_format(datetime.date(2026, 9, 7), i18n.local_format("D j M Y"))
        assert messages.run_message(run).startswith(f"15 FIXTURES PLANNED, {german_day} TO ")
    client.force_login(secretary)
    page = client.get(reverse("scheduling:run", args=[club.slug, run.pk]))
    assert "15 FIXTURES PLANNED" in page.content.decode()
    body = api_client(secretary, token=True).get(f"/api/clubs/{club.slug}/schedule-runs/{run.pk}/")
    assert body.status_code == 200, body.content
    # The API's own English text; the templates and values are the pages' business.
    assert body.json()["message"] == run.message
    assert body.json()["notes"] and all("template" not in n for n in body.json()["notes"])


def test_a_message_with_no_values_is_its_own_catalog_message(monkeypatch):
    _shouting(monkeypatch)
    stored = messages.message_data(["Queued."])
    assert stored == {"parts": [{"text": "Queued."}]}
    assert messages.shown(stored["parts"][0]) == "QUEUED."


def test_a_translation_whose_placeholders_do_not_fit_shows_the_english(monkeypatch):
    monkeypatch.setattr(i18n, "gettext", lambda text: "{nonsense} kapot")
    note = {"text": "Round 2: gone.", "template": "Round {round}: gone.", "params": {"round": 2}}
    assert messages.shown(note) == "Round 2: gone."


@pytest.mark.django_db(transaction=True)
def test_a_running_runs_progress_is_shown_in_the_readers_language(division, teams):
    """The progress the worker writes mid-run ("Writing fixtures: 1,200 of 4,000.") is
    read in Dutch on the run's page, from the catalog, its counts grouped the Dutch way;
    the API keeps the English."""
    from clabber_league.rules.errors import msg
    from clabber_league.scheduling.models import ScheduleRun
    from clabber_league.scheduling.services.generation import WRITING, _Progress

    run = ScheduleRun.objects.create(
        club_id=division.club_id, division=division, state=ScheduleRun.State.RUNNING
    )
    progress = _Progress(run.pk)
    try:
        progress(40, msg(WRITING, written=messages.Count(1200), total=messages.Count(4000)))
    finally:
        progress.close()
    run.refresh_from_db()
    assert (run.progress, run.message) == (40, "Writing fixtures: 1,200 of 4,000.")
    with translation.override("nl"):
        assert messages.run_message(run) == "Wedstrijden worden geschreven: 1.200 van 4.000."
