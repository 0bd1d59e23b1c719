"""The events app's writes, one module per kind: the event and its series (``events``),
check-in on the night (``checkin``), the rounds: draw, time, finish (``rounds``)."""
