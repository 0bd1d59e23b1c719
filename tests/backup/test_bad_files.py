"""``import_club`` answers every bad file with one clear line on standard error and exit
status 2, reads at most a bounded line into memory, and writes nothing: rows pointing
outside the backup, NUL characters, values longer or larger than their column, deep
nesting, a line of 30 MB, text that is not UTF-8. Staff accounts are created from a backup
only with ``--restore-staff``."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command, execute_from_command_line

from clabber_league.backup import services as backup
from clabber_league.clubs.models import Club, Player
from clabber_league.games.models import Deal, Game
from tests.factories import ClubFactory

from .test_round_trip import export_text, played  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "README.md"


def _set(text: str, table: str, field: str, value, *, raw: str | None = None) -> str:
    """The backup with the first row of ``table`` given ``value`` in ``field`` (or the
    whole row line replaced by ``raw``)."""
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        item = json.loads(line)
        if isinstance(item, dict) and item.get("table") == table:
            if raw is not None:
                lines[index + 1] = raw + "\n"
            else:
                row = json.loads(lines[index + 1])
                row[item["fields"].index(field)] = value
                lines[index + 1] = json.dumps(row) + "\n"
            return "".join(lines)
    raise AssertionError(f"no table {table} in the backup")


def _counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        get_user_model().objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Deal.objects.count(),
    )


@pytest.fixture(autouse=True)
def _test_connection_kept(monkeypatch):
    """``manage.py`` closes the database connections when a command ends: the test's own
    connection (its transaction) is kept open instead."""
    from django.db import connections

    monkeypatch.setattr(connections, "close_all", lambda: None)


def _refused(tmp_path, capsys, content: str | bytes) -> str:
    """Run ``manage.py import_club FILE --slug copy`` as an operator does: exit status 2,
    one line on standard error (returned), nothing written."""
    path = tmp_path / "bad.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    before = _counts()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        execute_from_command_line(["manage.py", "import_club", str(path), "--slug", "copy"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert _counts() == before
    assert not Club.objects.filter(slug="copy").exists()
    return err.strip()


def test_a_row_pointing_to_another_clubs_row_is_refused(played, club, tmp_path, capsys):  # noqa: F811
    other = ClubFactory(slug="other")
    text = _set(export_text(club), "clubs.player", "club_id", other.pk)
    err = _refused(tmp_path, capsys, text)
    assert f"clubs.player.club_id points to clubs.club {other.pk}" in err
    assert "which the backup does not hold" in err


def test_a_row_pointing_to_an_account_the_backup_does_not_hold_is_refused(
    played,  # noqa: F811
    club,
    tmp_path,
    capsys,
):
    text = _set(export_text(club), "clubs.membership", "user_id", 987654)
    err = _refused(tmp_path, capsys, text)
    assert "clubs.membership.user_id points to auth.user 987654" in err


def test_a_nullable_reference_to_a_row_outside_the_backup_is_refused_not_dropped(
    played,  # noqa: F811
    club,
    tmp_path,
    capsys,
):
    text = _set(export_text(club), "games.game", "fixture_id", 424242)
    err = _refused(tmp_path, capsys, text)
    assert "games.game.fixture_id points to scheduling.fixture 424242" in err


def test_a_nul_character_is_refused(played, club, tmp_path, capsys):  # noqa: F811
    text = _set(export_text(club), "clubs.player", "name", "Ann\u0000Lee")
    assert "NUL character" in _refused(tmp_path, capsys, text)
    nested = _set(export_text(club), "games.deal", "data", {"maker": "A", "x\u0000": 1})
    assert "NUL character" in _refused(tmp_path, capsys, nested)


def test_a_value_longer_than_its_column_is_refused(played, club, tmp_path, capsys):  # noqa: F811
    most = Player._meta.get_field("name").max_length
    text = _set(export_text(club), "clubs.player", "name", "A" * (most + 1))
    err = _refused(tmp_path, capsys, text)
    assert f"clubs.player.name is {most + 1:,} characters long; it holds at most {most}" in err


def test_an_account_name_longer_than_its_column_is_refused(played, club, tmp_path, capsys):  # noqa: F811
    lines = export_text(club).splitlines(keepends=True)
    for index, line in enumerate(lines):
        item = json.loads(line)
        if "user" in item:
            item["user"]["username"] = "u" * 5000
            lines[index] = json.dumps(item) + "\n"
            break
    err = _refused(tmp_path, capsys, "".join(lines))
    assert "auth.user.username is 5,000 characters long" in err


def test_a_number_outside_its_column_is_refused(played, club, tmp_path, capsys):  # noqa: F811
    text = _set(export_text(club), "games.game", "number", 10**12)
    assert "games.game.number is 1000000000000, outside" in _refused(tmp_path, capsys, text)
    text = _set(export_text(club), "games.game", "played_on", "the 32nd of May")
    assert "games.game.played_on is not a valid value" in _refused(tmp_path, capsys, text)
    text = _set(export_text(club), "games.game", "club_id", [1, 2])
    assert "games.game.club_id is not a valid value: not an id" in _refused(tmp_path, capsys, text)


@pytest.mark.parametrize("depth", [40, 200_000], ids=["deeper than allowed", "past recursion"])
def test_deep_nesting_is_refused(played, club, tmp_path, capsys, depth):  # noqa: F811
    text = export_text(club)
    row = json.loads(_set(text, "games.deal", "data", None).splitlines()[0])  # the header
    assert row["format"] == backup.FORMAT
    heading_at = next(
        i for i, line in enumerate(text.splitlines()) if '"table":"games.deal"' in line
    )
    fields = json.loads(text.splitlines()[heading_at])["fields"]
    first = json.loads(text.splitlines()[heading_at + 1])
    cells = [json.dumps(v) for v in first]
    cells[fields.index("data")] = "[" * depth + "]" * depth
    bad = _set(text, "games.deal", "data", None, raw="[" + ",".join(cells) + "]")
    err = _refused(tmp_path, capsys, bad)
    assert f"nests lists or objects deeper than {backup.MAX_DEPTH} levels" in err


def test_a_line_of_30_mb_is_refused_in_bounded_memory(played, club, tmp_path, capsys):  # noqa: F811
    text = export_text(club)
    huge = "[" + "0," * (15 * 1024 * 1024) + "0]"  # 30 MB: fifteen million numbers
    bad = _set(text, "games.deal", "data", None, raw=huge)
    tracemalloc.start()
    try:
        err = _refused(tmp_path, capsys, bad)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"longer than {backup.MAX_LINE:,} characters" in err
    del bad, huge
    assert peak < 100 * 1024 * 1024, f"{peak / 2**20:.0f} MiB"


def test_text_that_is_not_utf8_is_refused(played, club, tmp_path, capsys):  # noqa: F811
    text = _set(export_text(club), "clubs.player", "name", "PLACEHOLDER")
    raw = text.encode().replace(b"PLACEHOLDER", b"Ann \xff\xfe")
    assert "is not UTF-8 text" in _refused(tmp_path, capsys, raw)


def test_a_backup_with_two_clubs_is_refused(played, club, tmp_path, capsys):  # noqa: F811
    text = export_text(club)
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if '"table":"clubs.club"' in line)
    heading = json.loads(lines[at])
    second = json.loads(lines[at + 1])
    second[heading["fields"].index("id")] = 999_999
    second[heading["fields"].index("slug")] = "second"
    heading["rows"] = 2
    lines[at] = json.dumps(heading) + "\n"
    lines.insert(at + 2, json.dumps(second) + "\n")
    assert "exactly one club; this one holds 2" in _refused(tmp_path, capsys, "".join(lines))


def _a_staff_member_exported(club, scorer) -> str:
    scorer.is_staff = True
    scorer.save()
    text = export_text(club)
    get_user_model().objects.filter(pk=scorer.pk).delete()  # restored into a new database
    return text


def test_staff_accounts_are_created_without_staff_unless_asked(played, club, scorer, tmp_path):  # noqa: F811
    path = tmp_path / "club.jsonl"
    path.write_text(_a_staff_member_exported(club, scorer))
    out = io.StringIO()

    call_command("import_club", str(path), "--slug", "copy", stdout=out)

    restored = get_user_model().objects.get(username="scorer")
    assert restored.is_staff is False and restored.is_superuser is False
    assert "1 accounts were staff in the backup and were created without staff status" in (
        out.getvalue()
    )
    assert "--restore-staff" in out.getvalue()


def test_staff_accounts_are_created_with_restore_staff(played, club, scorer, tmp_path):  # noqa: F811
    path = tmp_path / "club.jsonl"
    path.write_text(_a_staff_member_exported(club, scorer))
    out = io.StringIO()

    call_command("import_club", str(path), "--slug", "copy", "--restore-staff", stdout=out)

    restored = get_user_model().objects.get(username="scorer")
    assert restored.is_staff is True and restored.is_superuser is False
    assert "1 accounts created with staff status." in out.getvalue()


def test_the_commands_help_and_the_readme_name_the_staff_option(capsys):
    with pytest.raises(SystemExit):
        execute_from_command_line(["manage.py", "import_club", "--help"])
    assert "--restore-staff" in capsys.readouterr().out
    assert "--restore-staff" in README.read_text(encoding="utf-8")
