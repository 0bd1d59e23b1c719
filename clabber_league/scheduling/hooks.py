"""The scheduling app's one hook upward: "a fixture's result changed without its games".

``fixture_changed`` is sent by ``scheduling.services.fixture_changes`` inside the
transaction that records, changes or undoes a forfeit or walkover (or deletes a fixture
that had a result), with the fixture row locked and saved::

    fixture_changed.send(fixture=fixture)

A result that comes from the fixture's games reaches the layers above through
``games.hooks.game_changed`` instead. Registered today by the standings
(``standings.services.standings_fixture_changed``), in ``StandingsConfig.ready()``.
"""

from clabber_league.core.hooks import Hook

fixture_changed = Hook("fixture_changed")
