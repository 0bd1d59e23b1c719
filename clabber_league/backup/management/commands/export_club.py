"""``manage.py export_club SLUG [-o FILE]``: a whole club as JSON (standard output or FILE)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from clabber_league.backup.services import JSON_ENCODER, club_export
from clabber_league.clubs.models import Club


class Command(BaseCommand):
    help = "Export a club with its seasons, fixtures, games, deals and audit history as JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with the slug {options['slug']!r}.")
        data = club_export(club=club)
        text = json.dumps(data, cls=JSON_ENCODER, indent=1)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text)
            rows = sum(len(v) for v in data["tables"].values())
            self.stderr.write(f"Exported {club.name}: {rows} rows to {options['output']}.")
        else:
            sys.stdout.write(text + "\n")
