"""``manage.py standings_check``: recompute every standing from the deals and compare.

Exits 0 when the stored aggregates equal the recomputation; otherwise lists each
difference and exits 1. ``--fix`` then rebuilds them from the deals (and rates any
confirmed game that was never rated). ``--division <id>`` checks one division.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clabber_league.leagues.models import Division
from clabber_league.standings.services.rebuild import standings_differences, standings_rebuild


class Command(BaseCommand):
    help = "Compare the standings aggregates with a full recomputation from the deals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fix", action="store_true", help="Rebuild them where they differ.")
        parser.add_argument("--division", type=int, help="Only this division (its id).")

    def handle(self, *args: Any, fix: bool = False, division: int | None = None, **kw: Any):
        div = None
        if division is not None:
            div = Division.objects.filter(pk=division).first()
            if div is None:
                raise CommandError(f"No division with id {division}.")
        differences = standings_differences(division=div)
        if not differences:
            self.stdout.write("Standings agree with a full recomputation from the deals.")
            return
        for line in differences:
            self.stdout.write(line)
        if fix:
            teams = standings_rebuild(division=div)
            left = standings_differences(division=div)
            if left:
                raise CommandError(f"{len(left)} differences remain after the rebuild.")
            self.stdout.write(
                f"Fixed: {len(differences)} differences; rebuilt the standings of {teams} teams."
            )
            return
        raise CommandError(
            f"{len(differences)} differences between the stored standings and the deals "
            "(run with --fix to rebuild)."
        )
