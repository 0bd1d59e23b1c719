"""Restoring a club (issue 10, issue 18): accounts keep their flags, a club restored where it
came from keeps its ids so calendar subscriptions go on working, a copy gets new calendar
keys and the command says so, a file cut short writes nothing, version 1 files still load,
and the progress bar shows on a terminal only."""

from __future__ import annotations

import io
import json
import sys

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from clabber_league.backup import services as backup_services
from clabber_league.backup.services import FORMAT, backup_read
from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Club
from clabber_league.games.models import Game
from clabber_league.leagues.models import Team
from clabber_league.scheduling import feeds
from clabber_league.standings.services.rebuild import standings_differences

from .test_round_trip import export_text, normalise, played  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def subscribed(played, club, viewer):  # noqa: F811
    """The viewer has a calendar link to the first team's feed."""
    team = Team.objects.filter(club=club).order_by("pk").first()
    key = feeds.feed_key_issue(access=access_for(club=club, user=viewer), team=team).key
    url = reverse("scheduling:team-ics", args=[club.slug, team.pk]) + f"?key={key}"
    assert Client().get(url).status_code == 200
    return url


def _import(path, *args) -> str:
    out = io.StringIO()
    call_command("import_club", str(path), *args, stdout=out)
    return out.getvalue()


def test_a_club_restored_where_it_came_from_keeps_ids_flags_and_calendar_links(
    club, viewer, scorer, subscribed, tmp_path
):
    viewer.is_active = False  # a member whose account was deactivated
    viewer.save()
    scorer.is_staff = True
    scorer.save()
    path = tmp_path / "club.jsonl"
    call_command("export_club", club.slug, "-o", str(path), stderr=io.StringIO())
    before = backup_read(path.open())
    ids = {"club": club.pk, "game": Game.objects.get(club=club).pk}
    # The database is lost: the club and its people are gone.
    paths = backup_services._club_paths()
    for model in reversed(backup_services._ordered(paths)):  # the rows that point first
        model._default_manager.filter(**{paths[model]: club.pk}).delete()
    get_user_model().objects.filter(pk__in=[viewer.pk, scorer.pk]).delete()

    output = _import(path, "--restore-staff")

    restored = Club.objects.get(slug=club.slug)
    assert (restored.pk, Game.objects.get(club=restored).pk) == (ids["club"], ids["game"])
    assert "Every row kept its id" in output
    assert "1 deactivated, and kept so" in output
    users = get_user_model().objects
    assert users.get(username="viewer").is_active is False
    assert users.get(username="scorer").is_staff is True
    assert users.get(username="scorer").is_superuser is False
    assert "Calendar links: all 1 still work." in output
    # The deactivated member's link opens nothing; reactivated, the same URL works again.
    assert Client().get(subscribed).status_code == 404
    users.filter(username="viewer").update(is_active=True)
    assert Client().get(subscribed).status_code == 200
    assert normalise(backup_read(io.StringIO(export_text(restored)))) == normalise(before)
    for division in restored.divisions.all():  # the standings rows came back as they were
        assert standings_differences(division=division) == []


def test_a_copy_beside_the_original_gets_new_calendar_keys_and_says_so(club, subscribed, tmp_path):
    path = tmp_path / "club.jsonl"
    call_command("export_club", club.slug, "-o", str(path), stderr=io.StringIO())
    output = _import(path, "--slug", "copy")
    assert "CALENDAR LINKS RE-ISSUED: 1 of 1" in output
    assert "new ids" in output
    copy = Club.objects.get(slug="copy")
    copied_key = copy.memberships.get(user__username="viewer").feed_keys.get()
    assert copied_key.key not in subscribed
    url = reverse("scheduling:team-ics", args=["copy", copied_key.team_id])
    assert Client().get(f"{url}?key={copied_key.key}").status_code == 200
    assert Client().get(subscribed).status_code == 200  # the original's is untouched


def test_a_file_cut_short_is_refused_and_nothing_is_written(played, club, tmp_path):  # noqa: F811
    lines = export_text(club).splitlines(keepends=True)
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(lines[: len(lines) // 2]))
    clubs, games = Club.objects.count(), Game.objects.count()
    with pytest.raises(CommandError, match="ends early"):
        _import(path, "--slug", "restored")
    assert (Club.objects.count(), Game.objects.count()) == (clubs, games)
    assert not get_user_model().objects.filter(username="restored").exists()


def test_a_version_1_backup_still_imports(played, club, tmp_path):  # noqa: F811
    data = backup_read(io.StringIO(export_text(club)))
    old = {  # the layout export_club wrote before the streaming format
        "format": FORMAT,
        "format_version": 1,
        "club": club.slug,
        "users": {k: {f: v for f, v in u.items() if f != "id"} for k, u in data["users"].items()},
        "tables": data["tables"],
    }
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old, indent=1))
    _import(path, "--slug", "from-v1")
    copy = Club.objects.get(slug="from-v1")
    assert normalise(backup_read(io.StringIO(export_text(copy)))) == normalise(data)


def test_the_progress_bar_shows_on_a_terminal_only(played, club, tmp_path, capsys, monkeypatch):  # noqa: F811
    path = tmp_path / "club.jsonl"
    call_command("export_club", club.slug, "-o", str(path), stderr=io.StringIO())
    capsys.readouterr()
    _import(path, "--slug", "piped")
    assert "Importing" not in capsys.readouterr().err
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    _import(path, "--slug", "on-a-terminal")
    bar = capsys.readouterr().err
    assert "Importing" in bar and "rows" in bar


def test_the_export_can_go_to_standard_output_and_back_in(played, club, monkeypatch):  # noqa: F811
    out = io.StringIO()
    call_command("export_club", club.slug, stdout=out)
    lines = out.getvalue().splitlines()
    assert json.loads(lines[0])["format"] == FORMAT and json.loads(lines[-1])["end"] is True
    copy = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(out.getvalue()))
    call_command("import_club", "-", "--slug", "from-stdin", stdout=copy)
    assert "Imported" in copy.getvalue()
    assert (
        Game.objects.get(club__slug="from-stdin").deal_count
        == Game.objects.get(club=club).deal_count
    )
