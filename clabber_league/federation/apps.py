from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "clabber_league.federation"
    label = "federation"
    verbose_name = _("Federations")
