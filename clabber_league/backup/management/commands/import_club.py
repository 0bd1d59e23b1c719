"""``manage.py import_club FILE [--slug NEW] [--name NEW]``: load a club backup."""

import json

from django.core.management.base import BaseCommand, CommandError

from clabber_league.backup.services import BackupError, club_import


class Command(BaseCommand):
    help = "Import a club exported by export_club (all of it or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup's JSON file ('-' for standard input)")
        parser.add_argument("--slug", help="import under this slug (a copy beside the original)")
        parser.add_argument("--name", help="and this name")

    def handle(self, *args, **options):
        try:
            if options["file"] == "-":
                import sys

                data = json.load(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as src:
                    data = json.load(src)
            club = club_import(data=data, slug=options["slug"], name=options["name"])
        except (OSError, ValueError, BackupError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Imported {club.name} as /clubs/{club.slug}/."))
