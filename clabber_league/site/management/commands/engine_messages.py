"""``manage.py engine_messages [--check]``: write ``static/js/engine_messages.js``.

The rules engine's message templates as ``gettext_noop`` calls, for the JavaScript catalog
(``clabber_league.site.engine_messages``). ``--check`` only says whether the file is up to
date (exit 1 when not).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clabber_league.site.engine_messages import OUTPUT, render


class Command(BaseCommand):
    help = "Write static/js/engine_messages.js from the rules engine's gettext_noop messages."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--check", action="store_true", help="Fail when the file is out of date."
        )

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        text = render()
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if check:
            if current != text:
                raise CommandError(f"{OUTPUT} is out of date: run make engine-messages")
            return
        if current != text:
            OUTPUT.write_text(text, encoding="utf-8")
        self.stdout.write(f"{OUTPUT.name}: {text.count('gettext_noop(') - 1} messages")
