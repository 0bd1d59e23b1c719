from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "clabber_league.leagues"
    label = "leagues"

    def ready(self) -> None:
        # A merged player's team places follow them (clubs.hooks, docs/ARCHITECTURE.md).
        from clabber_league.clubs.hooks import player_merging

        from .services import team_members_player_merging

        player_merging.connect(team_members_player_merging)
