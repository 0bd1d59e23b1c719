"""Send a results file to a federation through its API, from this site or any other:
``manage.py exchange_push --to https://fed.example.org/api/federations/nku/results/
--token clb_... night-12.json``.

The token is a member's API token on the receiving site (an officer's, or an admin of the
sending club with the admin scope). An XML file is turned into its JSON form first (the
API takes JSON). Exit status 0 when the file was imported (or was already), 1 when it was
refused (each problem printed on a line of its own), 2 when the site could not be reached.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clabber_league.exchange import building


def push(url: str, token: str, payload: dict[str, Any], *, timeout: float = 60) -> tuple[int, Any]:
    """POST the file; the answer's status and JSON body."""
    request = urllib.request.Request(
        url,
        data=json.dumps(payload).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Authorization": f"Token {token}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        body = error.read()
        try:
            return error.code, json.loads(body)
        except ValueError:
            return error.code, {"detail": body[:500].decode(errors="replace")}


class Command(BaseCommand):
    help = "Send a results file (JSON or XML) to a federation's API."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="The results file (.json, or its .xml form).")
        parser.add_argument(
            "--to",
            required=True,
            help="The federation's results URL: https://<site>/api/federations/<slug>/results/",
        )
        parser.add_argument("--token", required=True, help="An API token on that site.")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        try:
            if content.lstrip().startswith(b"<"):
                payload = building.from_xml(content)
            else:
                payload = json.loads(content.decode("utf-8-sig"))
        except (ValueError, building.XMLFormError) as exc:
            raise CommandError(f"{path} is not a results file: {exc}") from exc
        url = options["to"]
        if not url.startswith(("http://", "https://")):
            raise CommandError("--to takes an http(s) URL.")
        try:
            status, body = push(url, options["token"], payload)
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            self.stderr.write(f"Could not reach {url}: {exc}")
            sys.exit(2)
        if status in (200, 201):
            word = "Imported" if status == 201 else "Already imported"
            flagged = len(body.get("flags") or [])
            self.stdout.write(
                f"{word}: file {body.get('id')} ({body.get('status')}), "
                f"{flagged} flagged number(s)."
            )
            return
        self.stderr.write(f"Refused (HTTP {status}): {body.get('detail', '')}")
        for error in body.get("errors") or []:
            self.stderr.write(f"  {error.get('field') or '(file)'}: {error.get('message')}")
        sys.exit(1)
