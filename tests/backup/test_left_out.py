"""What a club backup leaves out is said where the operator sees it (issue 31)."""

import io

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from clabber_league.backup.services import backup_read

pytestmark = pytest.mark.django_db


def test_the_export_says_it_leaves_the_api_tokens_out(club, scorer, viewer, tmp_path):
    Token.objects.create(user=scorer)
    path, said = tmp_path / "club.jsonl", io.StringIO()
    call_command("export_club", club.slug, "-o", str(path), stderr=said)
    assert "Left out of the backup: API tokens (1 of this club's members have one" in (
        said.getvalue()
    )
    assert Token.objects.get(user=scorer).key not in path.read_text()
    # Written to standard output, the backup stays clean: the note is on standard error.
    out, err = io.StringIO(), io.StringIO()
    call_command("export_club", club.slug, stdout=out, stderr=err)
    assert "Left out" in err.getvalue() and "Left out" not in out.getvalue()
    assert backup_read(io.StringIO(out.getvalue()))["tables"]["clubs.club"]
