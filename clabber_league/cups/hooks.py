"""The cups app's hook upward (docs/ARCHITECTURE.md, "Hooks").

``tie_walked_over``: "a tie was decided without a game": a side did not turn up and the
other goes through (``services.progress.tie_walkover``). Sent inside that transaction, with
the tie saved and the bracket moved on::

    tie_walked_over.send(tie=tie)

A tie decided by its games is told through ``games.hooks.game_changed`` already. Registered
by the reports (``reports.services.reports_tie_walked_over``: a walkover may be its round's
last tie, and the round's report is then written).
"""

from __future__ import annotations

from clabber_league.core.hooks import Hook

tie_walked_over = Hook("tie_walked_over")
