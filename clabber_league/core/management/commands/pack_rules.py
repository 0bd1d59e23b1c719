"""``manage.py pack_rules``: pack ``clabber_league/rules/`` for the phone (``core.rules_pack``)."""

from typing import Any

from django.core.management.base import BaseCommand

from clabber_league.core import rules_pack


class Command(BaseCommand):
    help = "Pack clabber_league/rules/ into static/rules/clabber_rules.zip for offline entry."

    def handle(self, *args: Any, **options: Any) -> None:
        info = rules_pack.pack()
        files = info["files"]
        self.stdout.write(
            f"Packed {len(files)} files into static/rules/{info['zip']} ({info['sha256'][:12]})"
        )
