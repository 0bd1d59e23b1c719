from django.apps import AppConfig


class MembersConfig(AppConfig):
    name = "clabber_league.members"
    label = "members"
    verbose_name = "Members"

    def ready(self) -> None:
        # A disputed game waits for a club admin: nobody else confirms it meanwhile.
        from clabber_league.games.services import confirm_hold_register

        from .selectors import dispute_hold

        confirm_hold_register(dispute_hold)
