"""Texts in templates can be translated (issue 33, docs/glossary.md "Plurals")."""

from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def test_no_template_builds_a_plural_with_pluralize():
    """``word{{ n|pluralize }}`` glues an English "s" on: no catalog can translate it
    (Czech, Polish and Croatian have three or four forms). ``blocktranslate count`` can."""
    found = [
        str(path.relative_to(TEMPLATES))
        for path in sorted(TEMPLATES.rglob("*"))
        if path.suffix in {".html", ".txt"} and "|pluralize" in path.read_text(encoding="utf-8")
    ]
    assert found == []
