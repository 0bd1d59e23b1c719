from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "clabber_league.standings"
    label = "standings"
    verbose_name = "Standings, leaderboards and ratings"

    def ready(self) -> None:
        # The standings follow the games and the fixtures through their explicit hooks,
        # called inside the transaction of every change (docs/ARCHITECTURE.md).
        from clabber_league.clubs.hooks import player_merged
        from clabber_league.games.hooks import game_changed
        from clabber_league.scheduling.hooks import fixture_changed

        from .services.rebuild import standings_player_merged
        from .services.write_through import standings_fixture_changed, standings_game_changed

        game_changed.connect(standings_game_changed)
        fixture_changed.connect(standings_fixture_changed)
        player_merged.connect(standings_player_merged)
