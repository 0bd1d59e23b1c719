from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "clabber_league.leagues"
    label = "leagues"
