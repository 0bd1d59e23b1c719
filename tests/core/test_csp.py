"""Content-Security-Policy (issue 10): sent on every page, with no inline script allowed,
and no template renders an inline script or an on* handler."""

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.mark.django_db
def test_pages_carry_a_policy_without_inline_script(client):
    for path in ("/", "/rules/", "/accounts/login/", "/api/docs/"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "script-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "'unsafe-eval'" not in policy, path
        assert "frame-ancestors 'none'" in policy


def test_no_template_carries_an_inline_script_or_handler():
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
    handler = re.compile(r"\son[a-z]+\s*=", re.I)
    found = []
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        if inline_script.search(text) or handler.search(text):
            found.append(str(template.relative_to(TEMPLATES)))
    assert found == []
