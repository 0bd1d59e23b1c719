"""The games app's one hook upward: "a game changed".

``game_changed`` is sent by ``games.services`` inside the transaction of every write that
changes a game's deals or status (a deal recorded, corrected or deleted, paper-sheet rows
copied, a result confirmed), with the game row locked and already saved::

    game_changed.send(game=game, status_before="in_progress", fixture=None)

``status_before`` is the status the game had when the transaction read it, so a handler
can tell "still in progress" (nothing counts yet) from "just finished". ``fixture`` is the
game's fixture row when this transaction has already locked and saved it (its status
follows the game's result: ``scheduling.services.fixture_changes.fixture_result_update``),
else ``None``; a handler need not read it again. Handlers are
registered by the layers above games in their ``AppConfig.ready()``; today the standings
(``standings.services.write_through.standings_game_changed``). See ``core/hooks.py`` and
``docs/ARCHITECTURE.md``.
"""

from clabber_league.core.hooks import Hook

game_changed = Hook("game_changed")

#: Asked by ``games.table_links.table_link_check`` when a link's game is closed (confirmed
#: or abandoned): ``table_link_closed.ask(link=link)``. A handler answers ``[message]`` to
#: say in its own words why the link opens nothing (events: "Round 1 of Tuesday club
#: night is over ..."), or ``None``; the first answer wins, else the games' own message.
table_link_closed = Hook("table_link_closed")

#: Asked by ``games.services.start.game_start`` when a league game of a fixture starts
#: without rules: ``fixture_rules.ask(fixture=fixture)``. A handler answers ``[spec]`` (a
#: rule set's slug or house-rules data) when the fixture is played by other rules than its
#: division's, or ``None``; the first answer wins, else the division's rules. Registered by
#: the ranking (``ranking.interclub.interclub_fixture_rules``: an inter-club fixture is
#: played by its home team's club's rules). Asked at the start, not stored on the fixture,
#: so a home club that changes its rules changes them for every game not yet started, and
#: the game records the rules it was started with as every game does.
fixture_rules = Hook("fixture_rules")
