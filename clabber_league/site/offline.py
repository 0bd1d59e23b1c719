"""The service worker and what it keeps for offline deal entry (README: "Offline entry").

``/sw.js`` is served from the site's root so that its scope is the whole site (a worker
under ``/static/`` could only control ``/static/``). It precaches :func:`precache_urls`:
the deal page's styles and scripts, the Pyodide runtime and the packed rules engine
(``site.rules_pack``); and it keeps a copy of a game's deal page, sheet and API data each
time they are fetched online. Its version is a hash of that list, the packed engine's hash
and its own text, so a new engine or asset makes phones fetch the new ones.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Final

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static

from . import rules_pack

PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PAGE_ASSETS: Final = (
    "css/site.css",
    "css/print.css",
    "favicon.svg",
    "manifest.webmanifest",
    "icons/icon-192.png",
    "vendor/htmx/htmx.min.js",
    "js/site.js",
    "js/deal_form.js",
    "js/outbox.js",
    "js/offline_logic.js",
    "js/offline_entry.js",
    "js/engine_worker.js",
)


def pyodide_folder() -> str:
    """Pyodide loads its files by their own names from one folder: the names as vendored
    (``collectstatic`` keeps them beside the hashed copies of the production storage)."""
    return f"{settings.STATIC_URL.rstrip('/')}/vendor/pyodide/"


def engine_urls() -> dict[str, str]:
    """The engine worker, the Pyodide runtime's folder and the packed rules engine."""
    return {
        "worker": static("js/engine_worker.js"),
        "pyodide": pyodide_folder(),
        "rules": static("rules/clabber_rules.zip"),
    }


def precache_urls() -> list[str]:
    return [
        *(static(name) for name in PAGE_ASSETS),
        *(pyodide_folder() + name for name in PYODIDE_FILES),
        static("rules/clabber_rules.zip"),
    ]


def _rules_hash() -> str:
    return str(rules_pack.pack()[1]["sha256"])


@lru_cache(maxsize=1)
def _script(debug: bool) -> bytes:
    urls = precache_urls()
    context = {"precache": json.dumps(urls), "outbox": json.dumps(static("js/outbox.js"))}
    body = render_to_string("site/sw.js", {**context, "version": "{version}"})
    version = hashlib.sha256((body + json.dumps(urls) + _rules_hash()).encode()).hexdigest()[:16]
    if debug:  # a developer's edits to the pages' scripts count too
        for name in PAGE_ASSETS:
            path = Path(settings.BASE_DIR) / "static" / name
            if path.exists():
                version = hashlib.sha256(
                    (version + path.read_text(errors="ignore")).encode()
                ).hexdigest()[:16]
    return render_to_string("site/sw.js", {**context, "version": version}).encode()


def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, allowed the whole site as its scope."""
    if settings.DEBUG:
        _script.cache_clear()
    response = HttpResponse(_script(settings.DEBUG), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
