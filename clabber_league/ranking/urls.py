"""The ranking's pages, under ``/federations/<slug>/``."""

from django.urls import path

from . import views

app_name = "ranking"

urlpatterns = [
    path("ranking/", views.ranking, name="ranking"),
    path("ranking/about/", views.about, name="about"),
    path("ranking/settings/", views.ranking_settings_page, name="settings"),
    path("ranking/players/<str:number>/", views.player, name="player"),
    path("championships/new/", views.championship_new, name="championship-new"),
    path("championships/<int:pk>/", views.championship_detail, name="championship"),
    path("fixtures/<int:fixture_id>/enter/", views.fixture_enter, name="fixture-enter"),
    path("teams/<int:team_id>/home/", views.team_home, name="team-home"),
]
