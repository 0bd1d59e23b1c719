"""Write a finished competition's results file: ``manage.py exchange_export --club
de-klaver --kind night --id 12 [--xml] [-o night-12.json]`` (to standard output without
``-o``). The same file as the club's page and API give."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.management.base import BaseCommand, CommandError

from clabber_league.clubs.models import Club
from clabber_league.core.errors import ServiceError
from clabber_league.exchange import building, reading


class Command(BaseCommand):
    help = "Write a finished competition's results file (JSON, or XML with --xml)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--club", required=True, help="The club's slug.")
        parser.add_argument("--kind", required=True, choices=building.KINDS)
        parser.add_argument("--id", required=True, type=int, help="The competition's id.")
        parser.add_argument("--xml", action="store_true", help="The XML form.")
        parser.add_argument("-o", "--output", help="The file to write (default: stdout).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            club = Club.objects.get(slug=options["club"])
            payload = reading.export_event(club=club, kind=options["kind"], pk=options["id"])
        except ObjectDoesNotExist as exc:
            raise CommandError("No such club, or no such competition in it.") from exc
        except ServiceError as exc:
            raise CommandError(str(exc)) from exc
        text = building.to_xml(payload) if options["xml"] else json.dumps(payload, indent=1)
        if options["output"]:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
        else:
            self.stdout.write(text)
