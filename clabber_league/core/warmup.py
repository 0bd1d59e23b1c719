"""Work a web worker would otherwise do on its first requests, done once before it forks.

gunicorn runs with ``--preload``: the application is imported in the master and every worker
is forked from it, including each one that ``--max-requests`` replaces (every thousand
requests or so; a few times a minute on a busy night). Django imports the URLconf (every
view, serializer and the API schema's modules) on the first request a process serves, and
compiles each template the first time it is rendered. A fresh worker then spent about half
a second of CPU on its first requests (the first ``/healthz`` 320 ms, the first standings
page 98 ms) on a machine that has two cores; doing that work in the master once means a
forked worker starts with it done.

Then the objects the master holds (Django, DRF, the project: 172,000 objects in 100 MB) are
frozen out of the garbage collector (``gc.freeze``, as Python's documentation advises before
a fork). A forked worker shares them with the master until it writes to one, and the
collector's full passes wrote to every one, so each worker's first full collection copied
the whole heap, page by page; a replaced worker cost some 600 ms of CPU, and 150 ms once
frozen (``--max-requests 100``, one worker, a client sending requests one after another).

Nothing here opens a database connection: a connection opened before the fork would be
shared by every worker.
"""

from __future__ import annotations

import gc
from pathlib import Path

from django.template import engines
from django.template.backends.django import DjangoTemplates
from django.urls import get_resolver


def _engines() -> list[DjangoTemplates]:
    return [engine for engine in engines.all() if isinstance(engine, DjangoTemplates)]


def project_templates(engine: DjangoTemplates) -> list[str]:
    """The names of the project's own templates (the engine's ``DIRS``), sorted."""
    names: set[str] = set()
    for folder in map(Path, engine.engine.dirs):
        names.update(path.relative_to(folder).as_posix() for path in folder.rglob("*.html"))
    return sorted(names)


def warm_up() -> None:
    """Import the URLconf, compile the project's templates into the cached loader and
    freeze what the process holds out of the garbage collector.

    A template that fails to compile raises here, at start-up, rather than on the first
    visitor to the page that uses it.
    """
    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 - imports ROOT_URLCONF and every view it names
    resolver.reverse_dict  # noqa: B018 - builds the reverse lookup {% url %} and reverse() use
    for engine in _engines():
        for name in project_templates(engine):
            engine.get_template(name)
    # What is garbage now is collected once, here; what is left lives as long as the
    # process, and the collector need never look at it again (nor write to it, in a fork).
    gc.collect()
    gc.freeze()
