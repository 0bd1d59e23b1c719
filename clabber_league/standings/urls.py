from django.urls import path

from . import views

app_name = "standings"

urlpatterns = [
    path("", views.standings_index, name="index"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("divisions/<int:pk>/", views.division_standings, name="division"),
    path("divisions/<int:pk>/positions/", views.division_positions, name="positions"),
    path("divisions/<int:pk>/tiebreakers/", views.division_tiebreakers, name="tiebreakers"),
    path("divisions/<int:pk>/standings.csv", views.standings_csv, name="standings-csv"),
    path("divisions/<int:pk>/deals.csv", views.deals_csv, name="deals-csv"),
    path("teams/<int:pk>/", views.team_page, name="team"),
    path("players/<int:pk>/", views.player_page, name="player"),
]
