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
    script = Path(CLIENTS_DIR or ".cache/api-clients") / "ts" / "out" / "workflow.js"
    node = shutil.which("node")
    if not (script.is_file() and node):
        why = "node is missing" if not node else f"{script} is not built"
        if CLIENTS_DIR:  # make api-clients built it: missing now is a failure
            pytest.fail(why)
        pytest.skip(f"{why}: `make api-clients` generates the TypeScript client and runs this")
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
