"""Adding a club's members in one go: a pasted list or an uploaded CSV file.

Two steps, so that nothing is written before the club admin has seen it:
:func:`roster_parse` reads the text into rows, each with what will happen to it (a new
player, a name the club has already, or an error saying what is wrong with that row);
:func:`roster_import` writes the rows without an error, all in one transaction, and invites
by email those that came with an address (``invitation_create``: they join as that
player).

One member a line: ``Name`` or ``Name, email`` (a comma, a semicolon or a tab between
them). A CSV file is the same with an optional header row ``name,email``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player, Role
from clabber_league.clubs.services import player_create, player_name_clean

from .models import Invitation
from .services import MemberError, invitation_create

#: The most rows one paste or file takes (a club, not a federation's register).
ROSTER_MAX_ROWS = 500
ROSTER_MAX_BYTES = 256 * 1024

ROW_NAME_EMPTY = _("No name on this line.")
ROW_NAME_LONG = _("A name is at most 120 characters.")
ROW_EMAIL_INVALID = _("{email} is not an email address.")
ROW_TOO_MANY_CELLS = _("More than a name and an email address on this line.")
ROW_DUPLICATE = _("{name} is on line {line} already.")
ROW_EMAIL_DUPLICATE = _("{email} is on line {line} already.")
ROW_EXISTS = _("The club has {name} already: left as they are.")
ROSTER_EMPTY = _("Paste at least one name, or choose a file.")
ROSTER_TOO_LONG = _("At most {count} members at a time: split the list.")
ROSTER_FILE_TOO_BIG = _("The file is larger than 256 KB: is it the right one?")
ROSTER_NOT_TEXT = _("The file is not a CSV text file.")
ROSTER_HAS_ERRORS = _("Some lines have an error: correct them, or remove those lines.")
HEADER_NAMES = {"name", "naam", "nom", "player", "member"}


@dataclass
class RosterRow:
    line: int
    name: str
    email: str = ""
    error: str = ""
    exists: bool = False  # the club has this player already: nothing to do

    @property
    def adds(self) -> bool:
        return not self.error and not self.exists


def roster_text_from_file(data: bytes) -> str:
    """A CSV file's bytes as the text :func:`roster_parse` reads (UTF-8, with or without
    its byte order mark; else Windows' Latin-1, as spreadsheets save it)."""
    if len(data) > ROSTER_MAX_BYTES:
        raise MemberError.one("file", str(ROSTER_FILE_TOO_BIG))
    if b"\x00" in data:
        raise MemberError.one("file", str(ROSTER_NOT_TEXT))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _cells(text: str) -> list[tuple[int, list[str]]]:
    lines = text.splitlines()
    sample = "\n".join(lines[:20])
    delimiter = "\t" if "\t" in sample else (";" if ";" in sample and "," not in sample else ",")
    rows = []
    for number, cells in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), 1):
        cells = [c.strip() for c in cells]
        while cells and not cells[-1]:
            cells.pop()
        if cells:
            rows.append((number, cells))
    if rows and rows[0][1][0].casefold() in HEADER_NAMES:
        rows = rows[1:]  # a header row
    return rows


def roster_parse(*, club: Club, text: str) -> list[RosterRow]:
    """Each line of ``text`` as a row with its error, if any; refused whole only when
    there is nothing to read or far too much."""
    cells = _cells(text or "")
    if not cells:
        raise MemberError.one("text", str(ROSTER_EMPTY))
    if len(cells) > ROSTER_MAX_ROWS:
        raise MemberError.one("text", str(ROSTER_TOO_LONG).format(count=ROSTER_MAX_ROWS))
    existing = {
        n.casefold() for n in Player.objects.filter(club=club).values_list("name", flat=True)
    }
    seen_names: dict[str, int] = {}
    seen_emails: dict[str, int] = {}
    rows = []
    for number, row_cells in cells:
        row = RosterRow(line=number, name=player_name_clean(row_cells[0]))
        if len(row_cells) > 1:
            row.email = row_cells[1]
        row.error = _row_error(row, row_cells, seen_names, seen_emails)
        if not row.error:
            seen_names.setdefault(row.name.casefold(), number)
            if row.email:
                seen_emails.setdefault(row.email.casefold(), number)
            row.exists = row.name.casefold() in existing
        rows.append(row)
    return rows


def _row_error(
    row: RosterRow, cells: list[str], names: dict[str, int], emails: dict[str, int]
) -> str:
    if len(cells) > 2:
        return str(ROW_TOO_MANY_CELLS)
    if not row.name:
        return str(ROW_NAME_EMPTY)
    if len(row.name) > 120:
        return str(ROW_NAME_LONG)
    if row.name.casefold() in names:
        return str(ROW_DUPLICATE).format(name=row.name, line=names[row.name.casefold()])
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            return str(ROW_EMAIL_INVALID).format(email=row.email)
        if row.email.casefold() in emails:
            return str(ROW_EMAIL_DUPLICATE).format(
                email=row.email, line=emails[row.email.casefold()]
            )
    return ""


@dataclass
class RosterResult:
    players: list[Player]
    invitations: list[Invitation]


@transaction.atomic
def roster_import(*, club: Club, text: str, user: Any, request: Any = None) -> RosterResult:
    """Add the players of ``text`` (as :func:`roster_parse` reads it) and invite those with
    an email address, all or nothing. Refused while any line has an error: the admin sees
    the same preview again and corrects it."""
    rows = roster_parse(club=club, text=text)
    if any(r.error for r in rows):
        raise MemberError.one("text", str(ROSTER_HAS_ERRORS))
    players, invitations = [], []
    for row in rows:
        if not row.adds:
            continue
        player = player_create(club=club, name=row.name)
        players.append(player)
        if row.email:
            invitations.append(
                invitation_create(
                    club=club,
                    created_by=user,
                    role=Role.PLAYER,
                    email=row.email,
                    player=player,
                    note=row.name,
                    request=request,
                )
            )
    return RosterResult(players=players, invitations=invitations)
