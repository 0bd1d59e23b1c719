from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingConfig(AppConfig):
    name = "clabber_league.ranking"
    label = "ranking"
    verbose_name = _("National ranking and inter-club competitions")

    def ready(self) -> None:
        # The national ranking follows confirmed results through the games' explicit hook
        # (docs/ARCHITECTURE.md): the handler only queues a recomputation once the
        # transaction commits.
        from clabber_league.federation.hooks import players_changed
        from clabber_league.federation.sections import Section, register
        from clabber_league.games.hooks import fixture_rules, game_changed
        from clabber_league.scheduling.hooks import home_venues

        from .interclub import interclub_fixture_rules, interclub_home_venues
        from .selectors import championships_section, home_section
        from .services import ranking_game_changed, ranking_players_changed

        game_changed.connect(ranking_game_changed)
        # A link approved, a merge or its undo, a club in or out: replayed from the start.
        players_changed.connect(ranking_players_changed)
        # An inter-club team's home fixtures: at its home club's venue, by its rules.
        home_venues.connect(interclub_home_venues)
        fixture_rules.connect(interclub_fixture_rules)
        # The federation's home page shows the ranking's top ten (federation/sections.py).
        register(
            Section("ranking", "ranking/_federation_section.html", context=home_section, order=20)
        )
        # Its championship finals (championship.py), and the way to a new one for admins.
        register(
            Section(
                "championships",
                "ranking/_championships_section.html",
                context=championships_section,
                order=30,
            )
        )
