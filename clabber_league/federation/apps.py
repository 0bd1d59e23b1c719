from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "clabber_league.federation"
    label = "federation"
    verbose_name = _("Federations")

    def ready(self) -> None:
        # A person whose last membership in the member clubs ended has left; the retention
        # period runs from then (clubs.hooks.player_active_changed, services/privacy.py).
        from clabber_league.clubs.hooks import player_active_changed

        from .services.privacy import players_active_changed

        player_active_changed.connect(players_active_changed)

        from .sections import Section, register

        def clubs(access):
            from .selectors import member_clubs

            return {"member_clubs": member_clubs(federation=access.federation)}

        # The member clubs come first; competitions and the ranking add their own sections.
        register(Section("clubs", "federation/_section_clubs.html", context=clubs, order=10))
