from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Webhooks (issue 32): above the apps whose changes it pushes, below pages and API."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clabber_league.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # The lower layers say what happened through their hooks (docs/ARCHITECTURE.md);
        # each handler only records deliveries, sent once the transaction commits.
        from clabber_league.events.hooks import draw_published, night_finished
        from clabber_league.games.hooks import game_changed
        from clabber_league.scheduling.hooks import fixture_changed, fixture_moved

        from . import services

        game_changed.connect(services.webhooks_game_changed)
        fixture_changed.connect(services.webhooks_fixture_changed)
        fixture_moved.connect(services.webhooks_fixture_moved)
        draw_published.connect(services.webhooks_draw_published)
        night_finished.connect(services.webhooks_night_finished)
        # A person erased: the deliveries' payloads name them no more (clubs.hooks).
        from clabber_league.clubs.hooks import player_anonymised

        player_anonymised.connect(services.webhooks_player_anonymised)
