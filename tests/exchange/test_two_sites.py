"""Two sites exchange results through the file and the API alone: the club's site writes
the file (``exchange_export``), ``exchange_push`` sends it to the federation's site (here
the live test server) with an admin's token; the same file again changes nothing; a bad
file is refused, its problems printed, nothing imported. (Both sites share this test's
database here; ``test_another_site`` has the federation on a database of its own.)"""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from clabber_league.clubs import tokens
from clabber_league.exchange.models import ImportedResult, ResultFile

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_club_night_travels_by_file_and_api(
    live_server, club, night, secretary, tmp_path, capsys
):
    path = tmp_path / "night.xml"
    call_command(
        "exchange_export", club=club.slug, kind="night", id=night.pk, xml=True, output=str(path)
    )
    _token, key = tokens.token_create(user=secretary, name="to the federation", scope="admin")
    url = f"{live_server.url}/api/federations/nku/results/"

    call_command("exchange_push", str(path), to=url, token=key)
    assert "Imported: file" in capsys.readouterr().out
    call_command("exchange_push", str(path), to=url, token=key)
    assert "Already imported" in capsys.readouterr().out
    assert ResultFile.objects.count() == 1
    assert ImportedResult.objects.filter(number__startswith="NKU-").count() == 8

    bad = json.loads(json.dumps(ResultFile.objects.get().payload))
    bad["sender"]["club"]["slug"] = "somebody-else"
    bad["players"][1]["numbers"] = bad["players"][0]["numbers"]
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad))
    with pytest.raises(SystemExit) as exited:
        call_command("exchange_push", str(bad_path), to=url, token=key)
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert "players[1].numbers" in err and "sender.club.slug" in err
    assert ResultFile.objects.count() == 1
