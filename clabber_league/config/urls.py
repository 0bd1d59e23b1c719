"""URL map: pages, the API (club-scoped under /api/clubs/<club>/), the calculator, admin."""

from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from clabber_league.calculator import api as calculator_api
from clabber_league.calculator import views as calculator_views
from clabber_league.clubs import views as club_views
from clabber_league.core import api as core_api
from clabber_league.exchange import urls as exchange_urls
from clabber_league.games import table_views
from clabber_league.members import api as members_api
from clabber_league.ranking import api as ranking_api
from clabber_league.site import locale as site_locale
from clabber_league.site import offline as site_offline
from clabber_league.site import views as site_views

api_patterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "docs/",
        # the split view serves its script as a file: the CSP allows no inline script
        SpectacularSwaggerSplitView.as_view(
            url_name="schema", template_name="core/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path("docs/errors/", core_api.api_errors_doc, name="api-errors"),
    path("whoami/", core_api.WhoAmIView.as_view(), name="whoami"),
    path("me/settings/", members_api.MySettingsView.as_view(), name="my-settings"),
    path("rules/score/", calculator_api.ScoreDealView.as_view(), name="rules-score"),
    path("rules/game/", calculator_api.ScoreGameView.as_view(), name="rules-game"),
    path(
        "federations/<slug:federation_slug>/ranking/",
        ranking_api.FederationRankingView.as_view(),
        name="federation-ranking",
    ),
    path(
        "federations/<slug:federation_slug>/championships/",
        ranking_api.ChampionshipListView.as_view(),
        name="federation-championships",
    ),
    path(
        "federations/<slug:federation_slug>/championships/<int:pk>/",
        ranking_api.ChampionshipDetailView.as_view(),
        name="federation-championship",
    ),
    path(
        "federations/<slug:federation_slug>/interclub-teams/<int:team_id>/",
        ranking_api.InterclubTeamHomeView.as_view(),
        name="federation-interclub-team",
    ),
    path("", include("clabber_league.config.api_router")),
    # Last: an unknown /api/ URL answers the API's JSON 404; one missing only its trailing
    # slash (the calculator's old /api/rules/score) is redirected with 308, method and body kept.
    re_path(r"^.*$", core_api.api_not_found, name="api-not-found"),
]

urlpatterns = [
    path("", site_views.home, name="home"),
    path("healthz", site_views.healthz, name="healthz"),
    # For load balancers (docs/health.md): the process answers; the database answers.
    path("livez", site_views.livez, name="livez"),
    path("readyz", site_views.healthz, name="readyz"),
    path("sw.js", site_offline.service_worker, name="service-worker"),
    # The language switcher at the foot of every page (no language prefix in URLs).
    path("i18n/setlang/", site_locale.set_language, name="set_language"),
    # gettext() for the deal page's scripts, in the page's language (kept offline by sw.js).
    path("i18n/js/<str:lang>/", site_locale.javascript_catalog, name="javascript-catalog"),
    path("rules/", calculator_views.rules_page, name="rules"),
    path("rules/<slug:slug>/sheet/", calculator_views.blank_sheet, name="rules-sheet"),
    # A game's table link (its QR code): short, so that the code stays easy to scan.
    path("t/<str:token>/", table_views.table_link_open, name="table-link"),
    path("t/<str:token>/start/", table_views.table_link_start, name="table-link-start"),
    path("", include("clabber_league.clubs.urls")),  # /clubs/new/, a club's settings
    path("clubs/<slug:club_slug>/", club_views.club_home, name="club-home"),
    path(
        "clubs/<slug:club_slug>/house-rules/<int:pk>/sheet/",
        calculator_views.house_rules_sheet,
        name="house-rules-sheet",
    ),
    path("clubs/<slug:club_slug>/games/", include("clabber_league.games.urls")),
    path("clubs/<slug:club_slug>/schedule/", include("clabber_league.scheduling.urls")),
    path("clubs/<slug:club_slug>/standings/", include("clabber_league.standings.urls")),
    path("clubs/<slug:club_slug>/events/", include("clabber_league.events.urls")),
    path("clubs/<slug:club_slug>/cups/", include("clabber_league.cups.urls")),
    path("clubs/<slug:club_slug>/live/", include("clabber_league.live.urls")),
    path("clubs/<slug:club_slug>/webhooks/", include("clabber_league.webhooks.urls")),
    path("federations/<slug:federation_slug>/", include("clabber_league.ranking.urls")),
    path("clubs/<slug:club_slug>/reports/", include("clabber_league.reports.urls")),
    path("", include("clabber_league.notify.urls")),  # /me/notifications/
    # The results file (docs/exchange.md): a club's exports, a federation's imports.
    path(
        "clubs/<slug:club_slug>/exchange/",
        include((exchange_urls.club_urlpatterns, "exchange")),
    ),
    path(
        "federations/<slug:federation_slug>/results/",
        include((exchange_urls.federation_urlpatterns, "exchange_federation")),
    ),
    path("", include("clabber_league.members.urls")),
    # Federations above the clubs (issue 34): their pages, and a person's own data.
    path("federations/", include("clabber_league.federation.urls")),
    # Accounts are django-allauth's; "login" and "logout" keep their old names and paths.
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
]

handler500 = "clabber_league.site.views.server_error"
