"""A club's night travels to a federation that runs on another site: another process with
a database of its own (a fresh SQLite file, migrated), reached through the results file
and the API alone. The federation's site knows seven of the night's eight federation
numbers; it imports the night, flags the unknown one, and holds the same placings."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.core.management import call_command

from clabber_league.events.selectors import event_ranking
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db

#: Run on the federation's site once it is migrated: its federation, the sending club as a
#: member, an officer with an API token, and the numbers it holds. Prints the token.
SETUP = """
from django.contrib.auth import get_user_model
from clabber_league.clubs.models import Club
from clabber_league.clubs import tokens
from clabber_league.federation.models import FederationClub, FederationPlayer
from clabber_league.federation.services import federation_create
officer = get_user_model().objects.create_user("officer", password="a-long-pass-phrase")
federation = federation_create(name="NKU", slug="nku", number_prefix="NKU-", admin=officer)
club = Club.objects.create(slug={slug!r}, name={name!r})
FederationClub.objects.create(federation=federation, club=club)
for n in range(11, 18):
    FederationPlayer.objects.create(federation=federation, number=f"NKU-{{n}}", name=f"M {{n}}")
print(tokens.token_create(user=officer, name="officer", scope="admin")[1])
"""


def _site_env(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="clabber_league.config.settings.test",
        DATABASE_URL=f"sqlite:///{database}",
    )
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("TEST_REDIS_WORKER", None)
    return env


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str, token: str) -> object:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


@pytest.fixture
def federation_site(tmp_path, club):
    """The federation's own site: migrated, set up, served on a port of its own."""
    env = _site_env(tmp_path / "federation-site.sqlite3")
    _manage(env, "migrate", "-v0")
    token = _manage(env, "shell", "-c", SETUP.format(slug=club.slug, name=club.name)).split()[-1]
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert server.poll() is None, "the federation's site did not start"
                assert time.monotonic() < deadline, "the federation's site did not answer"
                time.sleep(0.2)
        yield url, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def test_a_club_night_lands_on_the_federations_own_site(
    federation_site, club, night, tmp_path, capsys
):
    url, token = federation_site
    path = tmp_path / "night.json"
    call_command("exchange_export", club=club.slug, kind="night", id=night.pk, output=str(path))
    expected = {line.name: line.position for line in event_ranking(night, to_member=True).lines}

    call_command("exchange_push", str(path), to=f"{url}/api/federations/nku/results/", token=token)
    assert "Imported: file" in capsys.readouterr().out
    call_command("exchange_push", str(path), to=f"{url}/api/federations/nku/results/", token=token)
    assert "Already imported" in capsys.readouterr().out

    listed = _get(f"{url}/api/federations/nku/results/", token)
    files = listed["results"] if isinstance(listed, dict) else listed
    assert [(f["club"], f["kind"], f["status"]) for f in files] == [
        (club.slug, "night", "provisional")
    ]
    detail = _get(f"{url}/api/federations/nku/results/{files[0]['id']}/", token)
    held = {r["player_name"]: (r["place"], r["number"], r["flag"]) for r in detail["results"]}
    assert {name: place for name, (place, _n, _f) in held.items()} == expected
    # Member 08 carries NKU-18, a number the federation's site has never issued.
    assert held["Member 08"][1:] == ("NKU-18", "unknown")
    assert all(flag == "" for name, (_p, _n, flag) in held.items() if name != "Member 08")
