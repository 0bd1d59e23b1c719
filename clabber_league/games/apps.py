from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "clabber_league.games"
    label = "games"
