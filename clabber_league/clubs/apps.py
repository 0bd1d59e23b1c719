from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clabber_league.clubs"
    label = "clubs"
