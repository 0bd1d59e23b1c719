"""The language of each answer (issue 33, docs/i18n.md).

In order: the member's own choice (``MemberProfile.language``, set on ``/me/settings/`` or
with the switcher at the foot of every page; empty follows the club), a visitor's choice from
the switcher (Django's language cookie), on a club's pages the club's default
(``clubs.decorators.club_view``), the browser's ``Accept-Language``, then English. A missing
or unknown code is skipped, so it falls back to the next. The API answers in English (its
messages have stable codes) whatever is chosen.

No language prefix in URLs: a game's table link and the QR codes printed on table cards and
night sheets must stay the same whatever language the phone that scans them reads.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.i18n import JavaScriptCatalog
from django.views.i18n import set_language as django_set_language

from clabber_league.clubs.locale import pick_language, supported_language
from clabber_league.members import services as member_services

API_PREFIX = "/api/"


def language_choice(request: HttpRequest) -> str:
    """The language the person chose (a member's own, a visitor's cookie), or ""."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return supported_language(member_services.profile_language(user_id=user.pk))
    return supported_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def language_browser(request: HttpRequest) -> str:
    """The best of the browser's ``Accept-Language`` that the site speaks, or ""."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _quality in translation.trans_real.parse_accept_lang_header(header):
        if code == "*":
            break
        found = supported_language(code)
        if found:
            return found
    return ""


class LanguageMiddleware:
    """Activate the answer's language for the whole request (Django's ``LocaleMiddleware``
    without language prefixes, with the member's own choice first)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path_info.startswith(API_PREFIX)
        if api:
            language = settings.LANGUAGE_CODE
        else:
            request.language_choice = language_choice(request)  # type: ignore[attr-defined]
            request.language_browser = language_browser(request)  # type: ignore[attr-defined]
            language = pick_language(request.language_choice, request.language_browser)  # type: ignore[attr-defined]
        request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
        translation.activate(language)
        try:
            response = self.get_response(request)
        finally:
            translation.deactivate()
        if not api:
            # A club's page may have answered in the club's language (club_view says so).
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)  # type: ignore[attr-defined]
        return response


def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher's form: Django's ``set_language`` (the language cookie, back to the page
    it was sent from); a member's choice is kept on their profile too, so it follows them to
    their other browsers and phones."""
    response = django_set_language(request)
    language = supported_language(request.POST.get("language"))
    if request.method == "POST" and language and request.user.is_authenticated:
        member_services.profile_set_language(user=request.user, language=language)
    return response


_catalog = JavaScriptCatalog.as_view(domain="djangojs")


def javascript_catalog(request: HttpRequest, lang: str) -> HttpResponse:
    """``/i18n/js/<lang>/``: Django's JavaScript catalog (``gettext()`` for the deal entry
    and offline entry scripts) in one language. The language is in the URL, not taken from
    the request, so the page asks for the one it is written in (a club's, a member's) and
    the service worker keeps one copy per language for the phone offline."""
    if supported_language(lang) != lang:
        raise Http404
    with translation.override(lang):
        return _catalog(request)
