from django.apps import AppConfig


class CupsConfig(AppConfig):
    name = "clabber_league.cups"
    label = "cups"
    verbose_name = "Cups and play-offs"

    def ready(self) -> None:
        # A tie's winner goes through when its games are confirmed, and a play-off's
        # knockout is built when its league stage is complete: both follow the games
        # through their explicit hook (docs/ARCHITECTURE.md).
        from clabber_league.games.hooks import game_changed
        from clabber_league.scheduling.hooks import fixture_changed, night_bookings

        from .services.placing import cups_night_bookings
        from .services.progress import cups_fixture_changed, cups_game_changed

        game_changed.connect(cups_game_changed)
        fixture_changed.connect(cups_fixture_changed)
        # A league fixture moved or generated onto a night sees the cup ties placed there.
        night_bookings.connect(cups_night_bookings)
        # An erased player's entries and the notes naming them take the anonymous name.
        from clabber_league.clubs.hooks import player_anonymised

        from .services.erasure import cups_player_anonymised

        player_anonymised.connect(cups_player_anonymised)
