"""The generated clients' workflow tests: a club, its logins and their tokens (what only the
admin or the site's sign-up makes), and the Python client generated from the live schema.

``make api-clients`` generates both clients into ``.cache/api-clients/`` (git-ignored),
type-checks them and runs these tests against them; run alone, pytest generates the Python
client into a temporary folder itself.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = "clabber_client"
CONFIG = "post_hooks: []\npackage_name_override: clabber_client\n"
#: Where ``make api-clients`` left the generated clients (unset: pytest generates its own).
CLIENTS_DIR = os.environ.get("API_CLIENTS_DIR", "")


@dataclass
class Club:
    slug: str
    tokens: dict[str, str]


@pytest.fixture(scope="session")
def client_package(tmp_path_factory, django_db_setup, django_db_blocker):
    """The Python client: ``make api-clients``' (type-checked), else generated here."""
    if CLIENTS_DIR and (Path(CLIENTS_DIR) / "python" / PACKAGE).is_dir():
        folder = Path(CLIENTS_DIR).resolve() / "python"
    else:
        from django.test import Client

        with django_db_blocker.unblock():
            schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        assert schema.status_code == 200
        folder = tmp_path_factory.mktemp("generated")
        (folder / "schema.json").write_bytes(schema.content)
        (folder / "config.yaml").write_text(CONFIG)
        generator = Path(sys.executable).with_name("openapi-python-client")
        result = subprocess.run(
            [
                str(generator),
                "generate",
                "--path",
                str(folder / "schema.json"),
                "--output-path",
                str(folder / PACKAGE),
                "--meta",
                "none",
                "--config",
                str(folder / "config.yaml"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture
def club_logins(db) -> Club:
    """A private club with its secretary (club admin) and a scorer, a token for each login
    (the Django admin or the site's sign-up makes them; the API makes everything else)."""
    from rest_framework.authtoken.models import Token

    from clabber_league.clubs.models import Role
    from tests.factories import ClubFactory, MembershipFactory

    club = ClubFactory(slug="harmonie", is_public=False)
    secretary = MembershipFactory(club=club, role=Role.ADMIN).user
    scorer = MembershipFactory(club=club, role=Role.SCORER).user
    return Club(
        slug=club.slug,
        tokens={
            "secretary": Token.objects.create(user=secretary).key,
            "scorer": Token.objects.create(user=scorer).key,
        },
    )
