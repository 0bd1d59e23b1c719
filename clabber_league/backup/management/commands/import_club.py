"""``manage.py import_club FILE [--slug NEW] [--name NEW] [--restore-staff]``: load a club
backup, streamed. A bad file is refused with one line on standard error and exit status 2,
nothing written."""

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
        parser.add_argument(
            "--restore-staff",
            action="store_true",
            help="give the accounts this import creates the staff status (the Django admin) "
            "they had in the backup; without it they are created without, whatever the file "
            "says (superuser status is never restored)",
        )

    def handle(self, *args, **options):
        show = sys.stdout.isatty()
        given = {
            "slug": options["slug"],
            "name": options["name"],
            "restore_staff": options["restore_staff"],
        }
        try:
            with progress_bar(description="Importing", show=show) as bar:
                if options["file"] == "-":
                    result = club_import(lines=sys.stdin, progress=bar, **given)
                else:
                    with open(options["file"], encoding="utf-8") as src:
                        result = club_import(lines=src, progress=bar, **given)
        except (OSError, ValueError, BackupError) as exc:
            # One line, exit status 2: a file refused, nothing written.
            message = " ".join(str(exc).split()) or type(exc).__name__
            raise CommandError(message, returncode=2) from exc
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
    if result.accounts_staff_dropped:
        lines.append(
            f"{result.accounts_staff_dropped} accounts were staff in the backup and were created "
            "without staff status (import with --restore-staff to keep it)."
        )
    if result.accounts_staff:
        lines.append(f"{result.accounts_staff} accounts created with staff status.")
    if result.calendar_links_changed:
        lines.append(
            f"CALENDAR LINKS RE-ISSUED: {result.calendar_links_changed} of "
            f"{result.calendar_links} members' calendar links (.ics) changed; those members "
            "must subscribe again from their team's page."
        )
    elif result.calendar_links:
        lines.append(f"Calendar links: all {result.calendar_links} still work.")
    return lines
