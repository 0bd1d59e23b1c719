"""The web server's start-up (clabber_league/core/warmup.py, run by config/wsgi.py)."""

from __future__ import annotations

import gc

import pytest
from django.template import TemplateSyntaxError

from clabber_league.core.warmup import warm_up


@pytest.fixture
def unfrozen():
    """warm_up freezes the objects of the process it runs in; give them back afterwards."""
    yield
    gc.unfreeze()


def test_start_up_compiles_every_template_of_the_project_without_the_database(unfrozen):
    # No database fixture: pytest-django fails any query or connection made here, and a
    # connection opened before gunicorn forks would be shared by every worker.
    warm_up()


def test_a_template_that_cannot_compile_stops_the_start_up(unfrozen, settings, tmp_path):
    (tmp_path / "fine.html").write_text("<p>{{ club.name }}</p>")
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "broken.html").write_text("<p>{% if %}</p>")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    with pytest.raises(TemplateSyntaxError, match="if"):
        warm_up()
