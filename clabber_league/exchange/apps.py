from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExchangeConfig(AppConfig):
    """The results file (issue 34): a finished competition exported as an open, versioned
    file (JSON, and XML in the spirit of USEBIO); a federation imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clabber_league.exchange"
    label = "exchange"
    verbose_name = _("Results exchange")

    def ready(self) -> None:
        # The federation's home shows its officers the results files (federation/sections.py).
        from clabber_league.federation.hooks import player_erased
        from clabber_league.federation.sections import Section, register
        from clabber_league.ranking.sources import results_source_register

        from .ranking_source import imported_events
        from .selectors import officer_section
        from .services import results_anonymise_erased

        # The final files join the national ranking (docs/ranking.md, "Other sources").
        results_source_register(imported_events)
        # An erased player's imported results stay, under the same anonymous name.
        player_erased.connect(results_anonymise_erased)

        register(
            Section(
                "results",
                "exchange/_federation_section.html",
                context=officer_section,
                order=30,
                visible=lambda access: access.is_officer,
            )
        )
