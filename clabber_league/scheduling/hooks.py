"""The scheduling app's hooks upward.

``fixture_changed``: "a fixture's result changed without its games". Sent by
``scheduling.services.fixture_changes`` inside the transaction that records, changes or
undoes a forfeit or walkover (or deletes a fixture that had a result), with the fixture row
locked and saved::

    fixture_changed.send(fixture=fixture)

A result that comes from the fixture's games reaches the layers above through
``games.hooks.game_changed`` instead. Registered by the standings
(``standings.services.standings_fixture_changed``) and the cups, in their ``ready()``.

``fixture_moved``: "a fixture was moved, postponed or rescheduled by hand". Sent by
``fixture_changes.fixture_move`` inside its transaction, the fixture row locked and saved
(its result is unchanged, so the standings do not listen)::

    fixture_moved.send(fixture=fixture)

Registered by the webhooks (``webhooks.services.webhooks_fixture_moved``).

``night_bookings``: "what else holds the club's nights and tables?" The clash checks of the
schedule (a fixture created or moved by hand: ``fixture_changes._check_night``; a schedule
generated: ``generation._occupied``) ask it, since scheduling may not import the apps that
book the same nights (a cup's ties)::

    night_bookings.ask(club_id=club.pk, start=date, end=date)  # end None: from start on

Each handler returns the :class:`Booking` s of the club from ``start`` to ``end``
(inclusive) that have a date. Registered by the cups
(``cups.services.placing.cups_night_bookings``), in ``CupsConfig.ready()``.

``home_venues``: "which teams of the division play their home fixtures at a venue of their
own?" Asked when fixtures are written (a schedule generated: ``generation._write``; a
fixture added by hand without a venue: ``fixture_changes.fixture_create``) and when a
fixture is placed by hand (``fixture_changes._check_place``: a team's home venue is
allowed, though another club's)::

    home_venues.ask(division=division)  # -> [(team id, Venue), ...]

A fixture whose home team answers is written at that venue, its table left to the home
club (``None``); the others are placed at the schedule's venues' tables as always. Stored
on the fixture (not resolved when read) so every page, feed and table card that shows a
fixture's venue shows it with no hook of its own. Registered by the ranking
(``ranking.interclub.interclub_home_venues``: an inter-club team's home club's venue).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clabber_league.core.hooks import Hook

fixture_changed = Hook("fixture_changed")
fixture_moved = Hook("fixture_moved")
night_bookings = Hook("night_bookings")
home_venues = Hook("home_venues")


@dataclass(frozen=True)
class Booking:
    """A meeting of a higher app on a night: its teams are busy and its table is taken."""

    date: dt.date
    label: str  # what holds the night, as a person reads it: "the cup tie Spring Cup W1-2"
    team_ids: frozenset[int] = frozenset()
    venue_id: int | None = None
    table: int | None = None
