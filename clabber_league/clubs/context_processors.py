"""Template context for the club switcher in the navigation bar."""

from django.http import HttpRequest

from .selectors import clubs_for_user


def clubs(request: HttpRequest) -> dict[str, object]:
    return {"nav_clubs": clubs_for_user(user=request.user).order_by("name")[:20]}
