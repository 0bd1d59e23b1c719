"""The tests' one way to call the API as someone: ``api_client(user)`` logs in with a
session (as the site's own pages call the API), ``api_client(user, token=True)`` sends the
user's API token instead (as an app does), ``api_client(None)`` is anonymous. Each call is
a client of its own. The ``api_client_for`` fixture of ``tests/conftest.py`` hands it out
to tests that prefer a fixture."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def api_client(user: Any = None, *, token: bool = False) -> APIClient:
    client = APIClient()
    if user is not None and token:
        key = Token.objects.get_or_create(user=user)[0].key
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    elif user is not None:
        client.force_login(user)
    return client
