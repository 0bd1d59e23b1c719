from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "clabber_league.games"
    label = "games"

    def ready(self) -> None:
        # A merged player's seats follow them (clubs.hooks, docs/ARCHITECTURE.md).
        from clabber_league.clubs.hooks import player_merging
        from clabber_league.core.hooks import idempotency_purging

        from .replay import correction_keys_purge
        from .services import deleted_keys_purge, seats_player_merging

        player_merging.connect(seats_player_merging)
        # An erased player's confirmation records take their anonymous name (clubs.hooks).
        from clabber_league.clubs.hooks import player_anonymised

        from .services.erasure import games_player_anonymised

        player_anonymised.connect(games_player_anonymised)
        # A correction's Idempotency-Key is forgotten by the daily clean-up too (core.tasks).
        idempotency_purging.connect(correction_keys_purge)
        # So is a deleted deal's (kept on its game: services.deal_delete).
        idempotency_purging.connect(deleted_keys_purge)
