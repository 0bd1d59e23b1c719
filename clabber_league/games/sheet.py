"""The score sheet as the paper one looks: a row per deal, the sides' columns, running totals.

Marks, as on the paper sheets of Evansville: ``XX`` ("turkey tracks") where the
makers were set, ``-`` for a zero that the makers' opponents scored, ``W`` beside
the winner's final total; the check column is the deal's total on the sheet.
This module only lays out numbers the rules engine already computed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import pgettext_lazy

from .models import Deal, Game

SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "none": "NT"}


@dataclass
class Cell:
    text: str
    mark: str = ""  # "set", "dash", "" — for styling


@dataclass
class SheetRow:
    number: int
    dealer: str
    maker: str
    trump: str
    outcome: str
    cells: list[Cell]
    check: int
    running: list[int]
    note: str = ""

    @property
    def columns(self) -> list[tuple[Cell, int]]:
        """Each side's cell with its running total (a phone shows them in one column)."""
        return list(zip(self.cells, self.running, strict=False))


@dataclass
class Sheet:
    sides: list[str]
    side_names: dict[str, str]
    rows: list[SheetRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    winner: str = ""


def cell_for(deal: Deal, side: str) -> Cell:
    return sheet_cell(deal.outcome, deal.maker, deal.scores, side)


def sheet_cell(outcome: str, maker: str | None, scores: dict[str, int], side: str) -> Cell:
    """How one side's number of one deal is written on the sheet."""
    score = scores.get(side, 0)
    if outcome == "set" and side == maker:
        return Cell("XX", "set")
    if outcome in ("made", "set", "renege") and score == 0 and side != maker:
        return Cell("-", "dash")
    if outcome in ("passed", "redeal", "hung"):
        return Cell("")
    return Cell(str(score))


NOTES = {
    "passed": pgettext_lazy("sheet note", "passed out"),
    "redeal": pgettext_lazy("sheet note", "all reneged: redeal"),
    "hung": pgettext_lazy("sheet note", "tie hangs"),
    "renege": pgettext_lazy("sheet note", "renege"),
}


def game_sheet(
    game: Game, deals: list[Deal], seat_names: dict[int, str], side_names: dict[str, str]
) -> Sheet:
    sides = list(game.scores)
    sheet = Sheet(sides=sides, side_names=side_names)
    for deal in deals:
        maker_name = seat_names.get(deal.maker_seat) if deal.maker_seat is not None else None
        sheet.rows.append(
            SheetRow(
                number=deal.number,
                dealer=seat_names.get(deal.dealer, str(deal.dealer)),
                maker=maker_name or (deal.maker or ""),
                trump=SUIT_SYMBOLS.get(deal.data.get("trump") or "", ""),
                outcome=deal.outcome,
                cells=[cell_for(deal, s) for s in sides],
                check=sum(deal.scores.values()),
                running=[deal.running.get(s, 0) for s in sides],
                note=str(NOTES.get(deal.outcome, "")),
            )
        )
    sheet.totals = [game.scores.get(s, 0) for s in sides]
    sheet.winner = game.winner
    return sheet
