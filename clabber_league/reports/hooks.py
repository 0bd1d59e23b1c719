"""The reports app's hook: "a report is on the club's page now".

``report_published`` is sent by ``services`` inside the transaction that publishes a
report (written with no approval asked, or approved), with the report saved (its players:
``selectors.report_players``)::

    report_published.send(report=report)

Registered by the notifications (``notify.services.notify_report_published``: "the night's
results" for league nights and cup rounds; a club night's players are told by
``events.hooks.night_finished`` already).
"""

from clabber_league.core.hooks import Hook

report_published = Hook("report_published")
