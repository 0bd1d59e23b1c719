"""The TypeScript client generated from the live schema (openapi-typescript types and
openapi-fetch) runs a season, a club night and a cup against a live server: workflow.ts,
type-checked and compiled by ``make api-clients``, run by node."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import CLIENTS_DIR

pytestmark = pytest.mark.django_db(transaction=True)


def _script() -> Path:
    if not CLIENTS_DIR:  # a build left from an older schema would not say much
        pytest.skip("`make api-clients` generates the TypeScript client and runs this")
    script = Path(CLIENTS_DIR) / "ts" / "out" / "workflow.js"
    if not shutil.which("node"):
        pytest.fail("node is missing")
    if not script.is_file():
        pytest.fail(f"{script} is not built")
    return script


def test_a_season_a_club_night_and_a_cup_through_the_typescript_client(
    live_server, club_logins, celery_worker_process
):
    script = _script()
    env = {
        **os.environ,
        "CLABBER_URL": live_server.url,
        "CLABBER_CLUB": club_logins.slug,
        "CLABBER_SECRETARY_TOKEN": club_logins.tokens["secretary"],
        "CLABBER_SCORER_TOKEN": club_logins.tokens["scorer"],
    }
    done = subprocess.run(
        ["node", str(script)], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["ok:", "season", "ok:", "club", "night", "ok:", "cup"]
