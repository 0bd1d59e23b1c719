"""The leagues app's hook upward: "a team withdrew from its division".

``leagues.services.team_withdraw`` marks the team withdrawn and sends, inside its
transaction, ``team_withdrawn(team=..., on=..., user=...)``; the schedule (a layer above,
which the leagues may not import) answers it by turning the team's fixtures from ``on``
into walkovers or removing them, as the division's ``withdrawal_policy`` says
(``scheduling.services.fixture_changes.fixtures_team_withdrawn``). A refusal there rolls
the withdrawal back. See ``core/hooks.py`` and ``docs/ARCHITECTURE.md``.
"""

from clabber_league.core.hooks import Hook

team_withdrawn = Hook("team_withdrawn")
