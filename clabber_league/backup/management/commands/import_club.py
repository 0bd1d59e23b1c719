"""``manage.py import_club FILE [--slug NEW] [--name NEW]``: load a club backup, streamed."""

import sys

from django.core.management.base import BaseCommand, CommandError

from clabber_league.backup.services import BackupError, ImportResult, club_import

from .progress import progress_bar


class Command(BaseCommand):
    help = "Import a club exported by export_club (all of it or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup's file ('-' for standard input)")
        parser.add_argument("--slug", help="import under this slug (a copy beside the original)")
        parser.add_argument("--name", help="and this name")

    def handle(self, *args, **options):
        show = sys.stdout.isatty()
        try:
            with progress_bar(description="Importing", show=show) as bar:
                if options["file"] == "-":
                    result = club_import(
                        lines=sys.stdin, slug=options["slug"], name=options["name"], progress=bar
                    )
                else:
                    with open(options["file"], encoding="utf-8") as src:
                        result = club_import(
                            lines=src, slug=options["slug"], name=options["name"], progress=bar
                        )
        except (OSError, ValueError, BackupError) as exc:
            raise CommandError(str(exc)) from exc
        for line in report(result):
            self.stdout.write(line)


def report(result: ImportResult) -> list[str]:
    """What the import did, in the words a club secretary needs."""
    club = result.club
    lines = [f"Imported {club.name} as /clubs/{club.slug}/: {result.rows} rows."]
    if result.rows and result.ids_kept == result.rows:
        lines.append("Every row kept its id: links to the club's pages still work.")
    elif result.ids_kept:
        lines.append(f"{result.ids_kept} of {result.rows} rows kept their id; the rest are new.")
    else:
        lines.append("The rows have new ids (the original club is still in this database).")
    accounts = f"Accounts: {result.accounts_created} created"
    if result.accounts_inactive:
        accounts += f" ({result.accounts_inactive} deactivated, and kept so)"
    accounts += f", {result.accounts_existing} already here (left as they are)."
    lines.append(accounts)
    if result.calendar_links_changed:
        lines.append(
            f"CALENDAR LINKS RE-ISSUED: {result.calendar_links_changed} of "
            f"{result.calendar_links} members' calendar links (.ics) changed; those members "
            "must subscribe again from their team's page."
        )
    elif result.calendar_links:
        lines.append(f"Calendar links: all {result.calendar_links} still work.")
    return lines
