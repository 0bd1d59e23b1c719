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

        # A merged player's invitations and disputes follow them (clubs.hooks).
        from clabber_league.clubs.hooks import player_merging

        from .services import member_rows_player_merging

        player_merging.connect(member_rows_player_merging)
        # An erased player's invitations lose their email and note (clubs.hooks).
        from clabber_league.clubs.hooks import player_anonymised

        from .services import members_player_anonymised

        player_anonymised.connect(members_player_anonymised)
