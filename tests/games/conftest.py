"""Deal builders for the games tests; the club, its members and a game at the table are
fixtures of tests/conftest.py, shared with other tests."""


def made(maker: str = "A", a: int = 100, last: str = "A", **extra) -> dict:
    """A played-out clabber deal: ``a`` card points for side A, the rest for B."""
    return {
        "maker": maker,
        "trump": "hearts",
        "points": {"A": a, "B": 152 - a},
        "last_trick": last,
        **extra,
    }
