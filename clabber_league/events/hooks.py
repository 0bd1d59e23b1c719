"""The events app's hooks upward: what a club night did, for the apps above it (webhooks).

``draw_published`` is sent by ``services.rounds._seat`` once a round's tables, games and
sit-outs are written (in the request, or by the draw task), inside that transaction::

    draw_published.send(round_=round_)

``night_finished`` is sent by ``services.rounds._round_close`` when the last round closes
and the event becomes finished, inside that transaction::

    night_finished.send(event=event)

Handlers run in the sender's transaction (``core/hooks.py``); today the webhooks'
(``webhooks.services.webhooks_draw_published``, ``webhooks_night_finished``), which only
record deliveries and send them once it commits.
"""

from clabber_league.core.hooks import Hook

draw_published = Hook("draw_published")
night_finished = Hook("night_finished")
