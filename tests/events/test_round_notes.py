"""A drawn round's notes are stored as sentences with their values and shown in the
reader's language, in the plural form that language gives the count (issue 33)."""

from __future__ import annotations

from django.utils import translation

from clabber_league.core import messages
from clabber_league.events.models import Round
from clabber_league.rules.errors import ngettext


def _repeats(count: int) -> Round:
    note = ngettext(
        "{count} partnership repeats one of tonight's.",
        "{count} partnerships repeat one of tonight's.",
        count,
        count=count,
    )
    return Round(notes=[messages.part(note)])


def test_a_rounds_note_takes_the_readers_plural_form():
    assert _repeats(1).notes_shown == ["1 partnership repeats one of tonight's."]
    assert _repeats(3).notes_shown == ["3 partnerships repeat one of tonight's."]
    with translation.override("pl"):  # Polish: 2-4 and 5+ take different forms
        few, many = _repeats(3).notes_shown[0], _repeats(5).notes_shown[0]
    assert few.startswith("3 ") and many.startswith("5 ")
    assert few[2:] != many[2:] and "partnership" not in few + many


def test_a_note_written_before_notes_kept_their_values_still_shows():
    assert Round(notes=["Kept as it was written."]).notes_shown == ["Kept as it was written."]
