"""The score sheet as the paper one looks: a row per deal, the sides' columns, running totals.

Marks, as on the paper sheets of Evansville: ``XX`` ("turkey tracks") where the
makers were set, ``-`` for a zero that the makers' opponents scored, ``W`` beside
the winner's final total; the check column is the deal's total on the sheet.
This module only lays out numbers the rules engine already computed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import pgettext_lazy

from .adapters import game_ruleset
from .models import Deal, Game

SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "none": "NT"}


@dataclass
class Cell:
    text: str
    mark: str = ""  # "set", "dash", "" — for styling


@dataclass
class TallyCell:
    """One pair's two columns of one deal on a klaverjas tally sheet (KLAVERJAS.md 7):
    points (with the last trick) and roem, and the mark: ``nat`` on the maker's side when
    it went nat, ``pit`` on the side that took every trick, ``renege`` on the offender."""

    points: str
    roem: str
    mark: str = ""


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
    tally: list[TallyCell] = field(default_factory=list)

    @property
    def tally_columns(self) -> list[tuple[TallyCell, int]]:
        return list(zip(self.tally, self.running, strict=False))

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
    klaverjas: bool = False
    points_totals: list[int] = field(default_factory=list)
    roem_totals: list[int] = field(default_factory=list)


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


def tally_cell(deal: Deal, side: str) -> TallyCell:
    """A pair's points and roem columns of a klaverjas deal, from the engine's answer."""
    result = deal.result or {}
    columns = result.get("sheet") or {}
    points = (columns.get("points") or {}).get(side)
    roem = (columns.get("roem") or {}).get(side)
    mark = ""
    if deal.outcome == "set" and side == deal.maker:
        mark = "nat"
    elif result.get("pit") == side:
        mark = "pit"
    elif deal.outcome == "renege" and side in (deal.data.get("renege") or []):
        mark = "renege"
    if deal.outcome == "redeal":
        return TallyCell("", "", mark)
    return TallyCell(
        "-" if not points else str(points),
        "" if not roem else str(roem),
        mark,
    )


def game_sheet(
    game: Game, deals: list[Deal], seat_names: dict[int, str], side_names: dict[str, str]
) -> Sheet:
    sides = list(game.scores)
    sheet = Sheet(sides=sides, side_names=side_names)
    klaverjas = game_ruleset(game).is_klaverjas
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
                tally=[tally_cell(deal, s) for s in sides] if klaverjas else [],
            )
        )
    if klaverjas:
        sheet.klaverjas = True
        for side in sides:
            columns = [(d.result or {}).get("sheet") or {} for d in deals]
            sheet.points_totals.append(sum((c.get("points") or {}).get(side, 0) for c in columns))
            sheet.roem_totals.append(sum((c.get("roem") or {}).get(side, 0) for c in columns))
    sheet.totals = [game.scores.get(s, 0) for s in sides]
    sheet.winner = game.winner
    return sheet
