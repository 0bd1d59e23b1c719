"""A club night's fixtures: its secretary (an admin), their access, twenty players."""

from tests.events.conftest import access, members, secretary  # noqa: F401
