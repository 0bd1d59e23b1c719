"""``manage.py ranking_recompute [slug ...]``: replay every federation's ranking (or the
ones named) from all their results, as after a change the hook does not see (a link
approved, two players merged, a member club removed)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clabber_league.federation.models import Federation
from clabber_league.ranking.services import ranking_recompute


class Command(BaseCommand):
    help = "Replay the national ranking of every federation, or of the ones named."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slugs", nargs="*", help="federations' slugs (all without)")

    def handle(self, *args: Any, slugs: list[str], **options: Any) -> None:
        federations = Federation.objects.order_by("slug")
        if slugs:
            federations = federations.filter(slug__in=slugs)
            missing = sorted(set(slugs) - {f.slug for f in federations})
            if missing:
                raise CommandError(f"No federation {', '.join(missing)}.")
        for federation in federations:
            events = ranking_recompute(federation=federation)
            self.stdout.write(f"{federation.slug}: {events} events rated")
