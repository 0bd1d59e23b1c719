"""Settings: ``base`` reads the environment; ``local``, ``test`` and ``production`` adjust it."""
