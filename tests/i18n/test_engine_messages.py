"""The rules engine's messages reach the JavaScript catalog (static/js/engine_messages.js)."""

from __future__ import annotations

from pathlib import Path

from clabber_league.rules.validation import MELD_PLAYER_TWO_SIDES
from clabber_league.site.engine_messages import OUTPUT, engine_templates, render


def test_the_generated_file_is_up_to_date() -> None:
    """Fails when a message of the engine was added or changed without
    ``make engine-messages``: the phone would show it in English only."""
    assert OUTPUT.read_text(encoding="utf-8") == render(), (
        "static/js/engine_messages.js is out of date: run make engine-messages"
    )


def test_every_marked_template_of_the_engine_is_listed() -> None:
    templates = engine_templates()
    assert MELD_PLAYER_TWO_SIDES in templates
    assert len(templates) == len(set(templates))
    assert all(text for text in templates)


def test_a_new_message_changes_the_file(tmp_path: Path) -> None:
    (tmp_path / "new.py").write_text(
        'from .errors import gettext_noop\nNEW = gettext_noop("A new message about {side}.")\n'
        'TWICE = gettext_noop("A new message about {side}.")\n',
        encoding="utf-8",
    )
    templates = engine_templates(tmp_path)
    assert templates == ["A new message about {side}."]
    assert 'gettext_noop("A new message about {side}.");' in render(templates)
