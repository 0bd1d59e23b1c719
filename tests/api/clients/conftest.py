"""The generated clients' workflow tests: a club, its logins and their tokens (what only the
admin or the site's sign-up makes), and the Python client generated from the live schema.

``make api-clients`` generates both clients into ``.cache/api-clients/`` (git-ignored),
type-checks them and runs these tests against them; run alone, pytest generates the Python
client into a temporary folder itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.api.generated import PACKAGE, generate, imported

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
        folder = tmp_path_factory.mktemp("generated")
        generate(folder, django_db_blocker)
    with imported(folder) as package:
        yield package


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
