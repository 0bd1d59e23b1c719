"""The rules page and the docs table come from the rule-set data, so they cannot drift."""

from pathlib import Path

import pytest
from django.urls import reverse

from clabber_league.rules import BUILTIN_RULESETS, catalog_markdown

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_rules_page_lists_every_builtin_rule_set_and_the_house_rule_examples(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    body = response.content.decode()
    assert len(BUILTIN_RULESETS) == 13  # RULES.md section 2 and the two klaverjas rule sets
    for slug in BUILTIN_RULESETS:
        assert f'id="{slug}"' in body
    assert "darda" in body and "derda" in body


def test_docs_rulesets_md_is_what_make_docs_generates():
    committed = (ROOT / "docs" / "rulesets.md").read_text()
    assert committed == catalog_markdown() + ("\n" if not catalog_markdown().endswith("\n") else "")
