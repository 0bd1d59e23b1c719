from django.apps import AppConfig


class LiveConfig(AppConfig):
    """Live pages and the stream overlay: news of each saved deal published to Redis after
    its transaction commits, followed by Server-Sent Events or by polling (issue 35)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clabber_league.live"
    label = "live"
    verbose_name = "Live scores"

    def ready(self) -> None:
        # A deal recorded, corrected or deleted, a game confirmed: its news goes out once
        # the transaction has committed (games.hooks, docs/ARCHITECTURE.md "Hooks").
        from clabber_league.games.hooks import game_changed

        from .publish import live_game_changed

        game_changed.connect(live_game_changed)
