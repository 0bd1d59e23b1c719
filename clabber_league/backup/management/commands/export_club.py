"""``manage.py export_club SLUG [-o FILE]``: a whole club as JSON lines (standard output or
FILE), streamed: memory stays flat however big the club is.

It says, on standard error (never inside the backup), what a club backup leaves out: the
members' API tokens (credentials, which a restore must not bring back to life: each member
makes a new one on their settings page after a restore), sign-in sessions and login lockouts.
docs/production.md, "Backups", says the same; PostgreSQL's own backups keep everything."""

import sys

from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token

from clabber_league.backup.services import club_export
from clabber_league.clubs.models import Club

from .progress import progress_bar


class Command(BaseCommand):
    help = "Export a club with its seasons, fixtures, games, deals and audit history (JSON lines)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with the slug {options['slug']!r}.")
        path = options["output"]
        # A bar only when a person watches, and never mixed into the backup itself.
        show = bool(path) and sys.stdout.isatty()
        with progress_bar(description=f"Exporting {club.slug}", show=show) as bar:
            if path:
                with open(path, "w", encoding="utf-8") as out:
                    rows = club_export(club=club, out=out, progress=bar)
            else:
                self.stdout.ending = ""  # the lines end themselves
                rows = club_export(club=club, out=self.stdout, progress=None)
        if path:
            self.stderr.write(f"Exported {club.name}: {rows} rows to {path}.")
        self.stderr.write(left_out(club))


def left_out(club: Club) -> str:
    tokens = Token.objects.filter(user__memberships__club=club).distinct().count()
    return (
        f"Left out of the backup: API tokens ({tokens} of this club's members have one; "
        "after a restore each makes a new one), sign-in sessions and login lockouts."
    )
