from django.apps import AppConfig


class SchedulingConfig(AppConfig):
    name = "clabber_league.scheduling"
    label = "scheduling"

    def ready(self) -> None:
        # A withdrawn team's later fixtures become walkovers or are removed
        # (leagues.hooks, docs/ARCHITECTURE.md).
        from clabber_league.leagues.hooks import team_withdrawn

        from .services.fixture_changes import fixtures_team_withdrawn

        team_withdrawn.connect(fixtures_team_withdrawn)
