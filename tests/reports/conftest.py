"""A club night's fixtures: its secretary (an admin), their access, twenty players; the
reports' tasks run eagerly."""

import pytest

from tests.events.conftest import access, members, secretary  # noqa: F401


@pytest.fixture(autouse=True)
def _eager(tasks_in_process) -> None:
    """The reports' tasks run in this process (as with eager Celery)."""
