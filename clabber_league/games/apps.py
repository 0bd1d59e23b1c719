from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "clabber_league.games"
    label = "games"

    def ready(self) -> None:
        # A merged player's seats follow them (clubs.hooks, docs/ARCHITECTURE.md).
        from clabber_league.clubs.hooks import player_merging

        from .services import seats_player_merging

        player_merging.connect(seats_player_merging)
