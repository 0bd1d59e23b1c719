from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """Notifications (issue 35): above the apps whose changes it tells members about."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clabber_league.notify"
    label = "notify"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The lower layers say what happened through their hooks (docs/ARCHITECTURE.md);
        # each handler only records notifications, sent by a task once the write commits.
        from clabber_league.events.hooks import draw_published, night_finished
        from clabber_league.games.hooks import game_changed
        from clabber_league.reports.hooks import report_published
        from clabber_league.scheduling.hooks import fixture_moved

        from . import services

        draw_published.connect(services.notify_draw_published)
        night_finished.connect(services.notify_night_finished)
        game_changed.connect(services.notify_game_changed)
        fixture_moved.connect(services.notify_fixture_moved)
        report_published.connect(services.notify_report_published)
        # A person erased: the club's notifications name them no more (clubs.hooks).
        from clabber_league.clubs.hooks import player_anonymised

        player_anonymised.connect(services.notify_player_anonymised)
