from django.apps import AppConfig


class EventsConfig(AppConfig):
    """Club nights and one-day open tournaments: individuals drawn to tables, rounds of
    games, the night's ranking and a season of nights (issue 15)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clabber_league.events"
    label = "events"
    verbose_name = "Club nights"

    def ready(self) -> None:
        # A merged player's entries and seats follow them (clubs.hooks, ARCHITECTURE.md).
        from clabber_league.clubs.hooks import player_merging

        from .services.merging import events_player_merging

        player_merging.connect(events_player_merging)
        # An erased player's name leaves the rounds' notes (clubs.hooks).
        from clabber_league.clubs.hooks import player_anonymised

        from .services.erasure import events_player_anonymised

        player_anonymised.connect(events_player_anonymised)

        # A table card of a finished round says the round is over (games.hooks).
        from clabber_league.games.hooks import table_link_closed

        from .selectors import closed_table_link_note

        table_link_closed.connect(closed_table_link_note)
