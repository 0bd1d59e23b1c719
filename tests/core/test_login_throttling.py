"""Login throttling (django-axes): five wrong passwords and that username waits."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_five_wrong_passwords_lock_the_username_out_even_with_the_right_one(client, user_factory):
    user_factory(username="marge", password="right-password-42")
    url = reverse("login")
    for _ in range(5):
        response = client.post(url, {"login": "marge", "password": "wrong"})
        assert response.status_code in (200, 429)
    response = client.post(url, {"login": "marge", "password": "right-password-42"})
    assert response.status_code == 429
    assert "Too many tries" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_right_password_before_the_limit_logs_in(client, user_factory):
    user_factory(username="homer", password="right-password-42")
    url = reverse("login")
    for _ in range(3):
        client.post(url, {"login": "homer", "password": "wrong"})
    response = client.post(url, {"login": "homer", "password": "right-password-42"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_every_form_page_carries_a_csrf_token(client):
    for url in (reverse("login"), "/admin/login/"):
        assert b"csrfmiddlewaretoken" in client.get(url).content
