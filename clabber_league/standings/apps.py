from django.apps import AppConfig
from django.db.models.signals import post_init


class StandingsConfig(AppConfig):
    name = "clabber_league.standings"
    label = "standings"
    verbose_name = "Standings, leaderboards and ratings"

    def ready(self) -> None:
        from clabber_league.games.models import Game

        from .services import remember_loaded_status

        post_init.connect(remember_loaded_status, sender=Game, dispatch_uid="standings-status")
