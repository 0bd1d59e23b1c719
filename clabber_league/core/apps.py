from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "clabber_league.core"
    label = "core"
    verbose_name = "Site"
