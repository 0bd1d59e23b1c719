from django.apps import AppConfig


class SchedulingConfig(AppConfig):
    name = "clabber_league.scheduling"
    label = "scheduling"
