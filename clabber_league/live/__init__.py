"""Live scores followed from anywhere (issue 35): a club night, a league night and a cup,
every table's running score a moment after each saved deal (``docs/live.md``)."""
