from django.urls import path

from . import views

app_name = "scheduling"

urlpatterns = [
    path("", views.schedule_index, name="index"),
    path("seasons/new/", views.season_new, name="season-new"),
    path("seasons/<slug:slug>/", views.season_detail, name="season"),
    path("venues/new/", views.venue_new, name="venue-new"),
    path("venues/<int:pk>/", views.venue_schedule, name="venue"),
    path("divisions/<int:pk>/", views.division_schedule, name="division"),
    path("divisions/<int:pk>/setup/", views.division_setup, name="setup"),
    path("divisions/<int:pk>/teams/new/", views.team_new, name="team-new"),
    path("divisions/<int:pk>/generate/", views.generate, name="generate"),
    path("runs/<int:pk>/", views.run_detail, name="run"),
    path("runs/<int:pk>/status/", views.run_status, name="run-status"),
    path("runs/<int:pk>/retry/", views.run_retry, name="run-retry"),
    path("teams/<int:pk>/", views.team_schedule, name="team"),
    path("teams/<int:pk>/calendar.ics", views.team_ics, name="team-ics"),
    path("teams/<int:pk>/calendar-link/", views.team_feed_key, name="team-feed-key"),
    path(
        "teams/<int:pk>/calendar-links/revoke/",
        views.team_feed_keys_revoke,
        name="team-feed-keys-revoke",
    ),
    path("teams/<int:pk>/edit/", views.team_edit, name="team-edit"),
    path("teams/<int:pk>/withdraw/", views.team_withdraw, name="team-withdraw"),
    path("divisions/<int:pk>/withdrawals/", views.withdrawal_policy, name="withdrawal-policy"),
    path("nights/<str:day>/", views.night, name="night"),
    path("nights/<str:day>/sheet/", views.night_sheet, name="night-sheet"),
    path("fixtures/<int:pk>/move/", views.fixture_move, name="fixture-move"),
    path("fixtures/<int:pk>/forfeit/", views.fixture_forfeit, name="fixture-forfeit"),
]
