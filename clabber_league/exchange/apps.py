from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExchangeConfig(AppConfig):
    """The results file (issue 34): a finished competition exported as an open, versioned
    file (JSON, and XML in the spirit of USEBIO); a federation imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clabber_league.exchange"
    label = "exchange"
    verbose_name = _("Results exchange")
