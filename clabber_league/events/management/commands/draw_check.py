"""``manage.py draw_check EVENT_ID``: draw each drawn round of a club night again from its
published seed and what it read, and say whether it comes out as stored (exit status 1
if any round does not)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clabber_league.events.draw_check import round_check
from clabber_league.events.models import Event


class Command(BaseCommand):
    help = (
        "Check a club night's draw: each drawn round is drawn again from its published "
        "seed, its entrants, table size and history, and compared with its stored tables."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("event_id", type=int, help="The event (club night) to check.")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(pk=options["event_id"]).select_related("club").first()
        if event is None:
            raise CommandError(f"No event {options['event_id']}.")
        failed = 0
        for round_ in event.round_set.select_related("event").order_by("number"):
            check = round_check(round_)
            if check.ok:
                self.stdout.write(
                    f"Round {check.number}: OK (seed {check.seed}, sha256 {check.seed_hash}, "
                    f"{check.algorithm})"
                )
            else:
                failed += 1
                self.stdout.write(f"Round {check.number}: {check.message}")
        if failed:
            raise SystemExit(1)
