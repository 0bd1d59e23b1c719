from django.apps import AppConfig


class ReportsConfig(AppConfig):
    """The night's report (issue 35): above club nights, leagues and cups, whose data it reads."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clabber_league.reports"
    label = "reports"
    verbose_name = "Reports"

    def ready(self) -> None:
        # A club night's last round closed, a league night's last result or a cup round's
        # last tie came in (played, or a walkover): its report is written by a task once
        # that write commits.
        from clabber_league.cups.hooks import tie_walked_over
        from clabber_league.events.hooks import night_finished
        from clabber_league.games.hooks import game_changed
        from clabber_league.scheduling.hooks import fixture_changed

        from . import services

        night_finished.connect(services.reports_night_finished)
        game_changed.connect(services.reports_game_changed)
        fixture_changed.connect(services.reports_fixture_changed)
        tie_walked_over.connect(services.reports_tie_walked_over)
        # A person erased: the club's reports name them no more (clubs.hooks).
        from clabber_league.clubs.hooks import player_anonymised

        player_anonymised.connect(services.reports_player_anonymised)
