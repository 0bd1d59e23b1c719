from django.apps import AppConfig


class MembersConfig(AppConfig):
    name = "clabber_league.members"
    label = "members"
    verbose_name = "Members"
