"""A club night's fixtures: its secretary (an admin), their access, twenty players; the
reports' tasks run eagerly."""

from collections.abc import Iterator

import pytest

from tests.events.conftest import access, members, secretary  # noqa: F401


@pytest.fixture(autouse=True)
def _eager() -> Iterator[None]:
    """The reports' tasks run in this process (as with eager Celery)."""
    from clabber_league.config.celery import app

    overridden = "task_always_eager" in app.conf.changes
    before = app.conf.changes.get("task_always_eager")
    app.conf.task_always_eager = True
    yield
    if overridden:
        app.conf.task_always_eager = before
    else:
        app.conf.changes.pop("task_always_eager", None)
