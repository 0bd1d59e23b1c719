"""A small results file built by hand (no games played): a club night of four players."""

from __future__ import annotations

import datetime as dt

from clabber_league.exchange import building as b


def night_file(club_slug: str, *, numbers: dict[int, str], when: str = "2026-12-05T20:00") -> dict:
    """Four players at one table, A (players 1 and 3) beating B (2 and 4) 608 to 40."""
    players = [
        b.PlayerIn(id=pk, name=name, numbers=[("nku", numbers[pk])] if pk in numbers else [])
        for pk, name in ((1, "Ann Smit"), (2, "Bob de Vries"), (3, "Cas Jansen"), (4, "Dirk Bos"))
    ]
    game = b.GameIn(
        id=10,
        status="confirmed",
        winner="A",
        rules="clabber",
        seats=[(1, "A"), (2, "B"), (3, "A"), (4, "B")],
        scores={"A": 608, "B": 40},
        date=dt.date(2026, 12, 1),
        round=1,
        table="1",
        deals=[
            b.DealIn(
                number=1,
                dealer=0,
                outcome="made",
                maker="A",
                data={"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}},
                scores={"A": 152, "B": 10},
            )
        ],
    )
    return b.results_file(
        sender=b.SenderIn(club_slug=club_slug, club_name="De Klaver", federations=[("nku", "NKU")]),
        event=b.EventIn(
            kind="night",
            key="night-1",
            name="Tuesday night",
            date_from=dt.date(2026, 12, 1),
            date_to=dt.date(2026, 12, 1),
            rules="clabber",
            ranking="points",
        ),
        players=players,
        sides=[b.SideIn(key=f"p{p.id}", name=p.name, players=[p.id]) for p in players],
        placings=[
            b.PlacingIn("p1", 1, 608),
            b.PlacingIn("p3", 1, 608),
            b.PlacingIn("p2", 3, 40),
            b.PlacingIn("p4", 3, 40),
        ],
        games=[game],
        generated_at=dt.datetime.fromisoformat(when + ":00+00:00"),
    )
