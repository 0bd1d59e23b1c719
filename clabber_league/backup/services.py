"""A whole club as a stream of JSON lines, and back: ``manage.py export_club`` / ``import_club``.

The export holds every row that belongs to the club, found by following foreign keys
to ``Club`` through the project's own apps (every app under ``clabber_league``), so a model
added later is included without a change here. Both directions stream: the export reads
each table with a database cursor and writes one line per row, the import reads one line at
a time and inserts in batches, so memory stays flat however big the club (``bench/backup.py``
measures it). The export reads one snapshot (REPEATABLE READ on PostgreSQL), so a club
being played meanwhile is still written consistently.

**The format** (version 2, JSON Lines: one JSON value per line):

1. a header ``{"format": "clabber-league-club-backup", "format_version": 2, "club": slug,
   "rows": N, ...}``;
2. one ``{"user": {...}}`` line per account the rows point to (username, email, password
   hash, names, ``is_active``, ``is_staff``; never ``is_superuser``);
3. per table, ``{"table": "games.deal", "fields": [...], "rows": n}`` and then its ``n`` rows
   as JSON arrays in that field order, tables ordered so that rows only point back;
4. ``{"end": true, "rows": N}``: a file cut short is refused (and nothing is written).

Version 1 files (one JSON document, ``{"tables": {...}}``) are still imported; they are
read whole, so they take memory in proportion to the club.

**Ids.** A row keeps its id when no row of its table has it already (a restore into a new
database, or after the club was deleted); otherwise it gets a new one, and every reference
to it is rewritten. So a club restored where it came from keeps its URLs, including the
teams' calendar feeds (``teams/<id>/calendar.ics?key=...``, whose keys are in the backup),
and a copy beside the original (``--slug``) gets new ids and new calendar keys.
:class:`ImportResult` says how many calendar links changed, so members can be told. The
standings rows (written last) are loaded as they are when the games, fixtures and players
kept their ids; otherwise (a copy) they are loaded with the ids inside their keys rewritten
too (a match key ``f7``/``g12``, a partnership's player ids), streamed like any table. Only
a key naming a row the backup lacks makes the import recompute them from the games instead,
one division at a time (``standings_rebuild``, which holds one division in memory).

**Accounts** are matched by username. One that does not exist yet is created with the
backup's password hash (their login still works) and keeps its ``is_active`` flag: a
deactivated member stays deactivated. Its ``is_staff`` flag (the Django admin) is kept
only when the operator asks for it (``restore_staff``, ``import_club --restore-staff``);
otherwise it is created without, and the import says how many. An account that exists
already is left as it is. Superuser status is never restored from a file.

**A bad file** is refused whole, with one line saying what is wrong and where, and
nothing written: a line longer than ``MAX_LINE`` characters (never read whole), text that
is not UTF-8, a NUL character anywhere, values nested deeper than ``MAX_DEPTH``, a value
longer than its column holds or outside its column's range, and a row pointing to a row
the backup does not hold (another club's, or nobody's), accounts included.

A backup holds password hashes, email addresses and calendar keys: keep it as safe as the
database.
"""

from __future__ import annotations

import datetime
import functools
import json
import secrets
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations

from clabber_league import __version__
from clabber_league.clubs.models import Club
from clabber_league.core import store as kernel

from . import store

FORMAT = "clabber-league-club-backup"
FORMAT_VERSION = 2
PROJECT_PACKAGE = "clabber_league."
BATCH = 1000
NOT_A_BACKUP = "This file is not a Clabber League club backup."
NEWER_FORMAT = "This backup was written by a newer version (format {found}); upgrade first."
SLUG_TAKEN = "A club with the slug {slug!r} already exists; import under another --slug."
UNKNOWN_MODEL = "The backup holds rows of {model}, which this version does not know."
CUT_SHORT = "The backup ends early (after {rows} rows): the file is incomplete."
BAD_LINE = "Line {line} of the backup is not what the format says: {problem}."
USER_FLAGS = ("is_active", "is_staff")
#: The longest line read (characters): a row of the biggest table is a few kilobytes. A
#: longer line is refused without being read whole, so memory stays flat.
MAX_LINE = 1_000_000
#: The deepest nesting of lists and objects a line may hold (a deal's JSON is 4 deep).
MAX_DEPTH = 32
#: A version 1 file is one JSON document read whole: at most this many characters.
MAX_V1 = 5_000_000
LINE_TOO_LONG = (
    "Line {line} of the backup is longer than {limit:,} characters: no backup holds such a line."
)
NOT_UTF8 = "Line {line} of the backup is not UTF-8 text."
HAS_NUL = "Line {line} of the backup holds a NUL character, which no value may hold."
TOO_DEEP = "Line {line} of the backup nests lists or objects deeper than {depth} levels."
V1_TOO_BIG = (
    "This version 1 backup is larger than {limit:,} characters, which is read whole: export "
    "the club again with this version."
)
TOO_LONG = (
    "Line {line} of the backup: {table}.{field} is {length:,} characters long; it holds at "
    "most {most}."
)
OUT_OF_RANGE = "Line {line} of the backup: {table}.{field} is {value}, outside {low} to {high}."
BAD_VALUE = "Line {line} of the backup: {table}.{field} is not a valid value: {problem}"
POINTS_OUTSIDE = (
    "Line {line} of the backup: {table}.{field} points to {target} {value}, which the backup "
    "does not hold."
)
ONE_CLUB = "A backup holds exactly one club; this one holds {count}."
DOES_NOT_FIT = "The backup's rows do not fit this database: {problem}."
#: Tables whose model moved to another app since a backup was written: old label -> new.
MOVED = {"scheduling.venue": "leagues.venue"}
# Derived rows whose keys hold ids no foreign key remaps (a match key "g12", a partnership
# "3-7"). When the games, fixtures and players kept their ids they are loaded as they are;
# otherwise their keys are rewritten with the new ids (``REKEYED``), or, failing that, they
# are read past and recomputed from the games (``_rebuild_derived``).
REBUILT = {
    "standings.teamstanding",
    "standings.standingcontribution",
    "standings.playergamestat",
    "standings.partnershipgamestat",
}
# Derived rows never written to a backup: the import adds them up again from the rows it
# loaded (``_recompute_totals``), whatever ids those kept.
RECOMPUTED = {"standings.leaderboardtotal"}
IDS_IN_KEYS = {
    "clubs.player",
    "leagues.division",
    "leagues.team",
    "scheduling.fixture",
    "games.game",
}

Progress = Callable[[int, int], None]  # (rows just written or read, rows in all)


class BackupError(Exception):
    pass


class BackupEncoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds (Django's cuts them to
    milliseconds, so a restored deal's time would differ from the original's)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


JSON_ENCODER = BackupEncoder


def _dumps(value: Any) -> str:
    return json.dumps(value, cls=BackupEncoder, separators=(",", ":"))


# --- which rows belong to a club ------------------------------------------------------


def _own_models() -> list[type[models.Model]]:
    return [
        m
        for config in apps.get_app_configs()
        if config.name.startswith(PROJECT_PACKAGE)
        for m in config.get_models()
        if not m._meta.proxy and not m._meta.abstract
    ]


def _club_paths() -> dict[type[models.Model], str]:
    """For each model of our apps, the ORM path from it to its club (``club`` or
    ``config__club`` ...), found breadth-first along its foreign keys."""
    paths: dict[type[models.Model], str] = {Club: "pk"}
    candidates = _own_models()
    changed = True
    while changed:
        changed = False
        for model in candidates:
            if model in paths:
                continue
            for fk in _forward_fks(model):
                target = fk.related_model
                if target in paths:
                    rest = paths[target]
                    paths[model] = fk.name if rest == "pk" else f"{fk.name}__{rest}"
                    changed = True
                    break
    return paths


def _forward_fks(model: type[models.Model]) -> list[models.ForeignKey]:
    return [
        f for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)
    ]


def _ordered(models_: Iterable[type[models.Model]]) -> list[type[models.Model]]:
    """Models so that every model comes after the models it points to (FK targets)."""
    models_ = list(models_)
    inside = set(models_)
    deps = {
        m: {
            f.related_model
            for f in _forward_fks(m)
            if f.related_model in inside and f.related_model is not m
        }
        for m in models_
    }
    for m in models_:  # multi-table inheritance parents come first too
        deps[m] |= {p for p in m._meta.parents if p in inside}
    order: list[type[models.Model]] = []
    ready = deque(sorted((m for m in models_ if not deps[m]), key=lambda m: m._meta.label))
    waiting = {m: set(d) for m, d in deps.items() if d}
    while ready:
        model = ready.popleft()
        order.append(model)
        for other, needs in list(waiting.items()):
            needs.discard(model)
            if not needs:
                del waiting[other]
                ready.append(other)
    if waiting:  # a cycle: nullable FKs are patched after insert, so any order works
        order.extend(sorted(waiting, key=lambda m: m._meta.label))
    return order


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


# --- export --------------------------------------------------------------------------


def club_export(
    *, club: Club, out: IO[str], progress: Progress | None = None, passwords: bool = True
) -> int:
    """Write every row of the club to ``out`` (format 2, above), one line at a time, from
    one consistent snapshot. Returns how many rows were written. ``passwords=False`` (the
    club admin's download from the club's settings page) leaves the accounts' password
    hashes out: an account restored from such a file sets its password by email."""
    # A transaction of its own reads one snapshot (REPEATABLE READ must be its first
    # statement); inside a caller's transaction (a test's, say) that one is the snapshot.
    own_transaction = not kernel.in_transaction()
    with transaction.atomic():
        if own_transaction:
            store.snapshot_read_only()
        return _export(club, out, progress, passwords)


def _export_order(paths: dict[type[models.Model], str]) -> list[type[models.Model]]:
    """Rows only point back; the derived standings rows come last, so the import knows,
    when it reaches them, whether the games kept their ids (then they are loaded as they
    are) or not (then they are recomputed)."""
    order = [m for m in _ordered(paths) if _label(m) not in RECOMPUTED]
    return [m for m in order if _label(m) not in REBUILT] + [
        m for m in order if _label(m) in REBUILT
    ]


def _export(club: Club, out: IO[str], progress: Progress | None, passwords: bool = True) -> int:
    paths = _club_paths()
    user_model = get_user_model()
    tables = []
    user_ids: set[int] = set()
    for model in _export_order(paths):
        queryset = model._default_manager.filter(**{paths[model]: club.pk})
        tables.append((model, queryset, queryset.count()))
        for f in model._meta.concrete_fields:
            if f.is_relation and f.related_model is user_model:
                user_ids.update(
                    queryset.exclude(**{f"{f.attname}__isnull": True})
                    .values_list(f.attname, flat=True)
                    .distinct()
                )
    total = sum(count for _, _, count in tables)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(),
        "club": club.slug,
        "rows": total,
    }
    out.write(_dumps(header) + "\n")
    for user in user_model.objects.filter(pk__in=user_ids).order_by("pk").iterator(BATCH):
        out.write(_dumps({"user": _user_info(user, passwords)}) + "\n")
    written = 0
    for model, queryset, count in tables:
        names = [f.attname for f in model._meta.concrete_fields]
        out.write(_dumps({"table": _label(model), "fields": names, "rows": count}) + "\n")
        rows = queryset.order_by("pk").values_list(*names).iterator(chunk_size=2000)
        in_table = 0
        for row in rows:
            out.write(_dumps(row) + "\n")
            in_table += 1
            if progress is not None and in_table % BATCH == 0:
                progress(BATCH, total)
        if progress is not None:
            progress(in_table % BATCH, total)
        written += in_table
    out.write(_dumps({"end": True, "rows": written}) + "\n")
    return written


def _user_info(user: Any, passwords: bool = True) -> dict[str, Any]:
    info = {
        "id": user.pk,
        "username": user.get_username(),
        "email": getattr(user, "email", ""),
        "password": user.password if passwords else "",
        "first_name": getattr(user, "first_name", ""),
        "last_name": getattr(user, "last_name", ""),
    }
    for flag in USER_FLAGS:
        info[flag] = bool(getattr(user, flag, flag == "is_active"))
    return info


def backup_read(lines: Iterable[str]) -> dict[str, Any]:
    """A backup (either format) as one dict ``{"header", "users", "tables": {label: [row
    dicts]}}``: for tests and for looking into a file, not for big clubs (it is all in
    memory)."""
    result: dict[str, Any] = {"header": None, "users": {}, "tables": {}}
    for kind, value in _events(_Lines(lines)):
        if kind == "header":
            result["header"] = value
        elif kind == "user":
            result["users"][str(value["id"])] = value
        elif kind == "table":
            fields = value["fields"]
            result["tables"][value["table"]] = [
                dict(zip(fields, row, strict=True)) for row in value["rows"]
            ]
    return result


# --- reading either format as one stream of events -------------------------------------


class _Lines:
    """The backup's lines, each at most ``MAX_LINE`` characters (a longer one is refused
    after reading that much of it, never whole), counted: ``number`` is the last one's."""

    def __init__(self, source: Iterable[str]) -> None:
        self.readline = getattr(source, "readline", None)
        self.source = iter(source) if self.readline is None else None
        self.number = 0

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        self.number += 1
        try:
            if self.readline is not None:
                line = self.readline(MAX_LINE + 2)
                if not line:
                    raise StopIteration
            else:
                line = next(self.source)  # type: ignore[arg-type]
        except UnicodeDecodeError as exc:
            raise BackupError(NOT_UTF8.format(line=self.number)) from exc
        if len(line.rstrip("\r\n")) > MAX_LINE:
            raise BackupError(LINE_TOO_LONG.format(line=self.number, limit=MAX_LINE))
        return line


def _parse(line: str, number: int) -> Any:
    """One line's JSON, refused (one line saying why) when it is not JSON, nests deeper
    than ``MAX_DEPTH`` or holds a NUL character (PostgreSQL's text and JSON hold none)."""
    try:
        value = json.loads(line)
    except RecursionError as exc:
        raise BackupError(TOO_DEEP.format(line=number, depth=MAX_DEPTH)) from exc
    except ValueError as exc:
        raise BackupError(BAD_LINE.format(line=number, problem="not JSON")) from exc
    _check_text(value, number, line)
    return value


def _check_text(value: Any, number: int, line: str | None = None) -> None:
    """Refuse a NUL character (in a string or a key) or nesting deeper than ``MAX_DEPTH``.
    Given the ``line`` the value was read from, a line that cannot hold either (no escaped
    NUL, fewer brackets than the limit: nearly every row) is not walked."""
    if (
        line is not None
        and "\\u0000" not in line
        and line.count("[") + line.count("{") <= MAX_DEPTH
    ):
        return
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BackupError(HAS_NUL.format(line=number))
            continue
        if not isinstance(item, (list, dict)):
            continue
        if depth >= MAX_DEPTH:
            raise BackupError(TOO_DEEP.format(line=number, depth=MAX_DEPTH))
        if isinstance(item, dict):
            stack.extend((key, depth + 1) for key in item)
            stack.extend((v, depth + 1) for v in item.values())
        else:
            stack.extend((v, depth + 1) for v in item)


def _events(lines: _Lines) -> Iterator[tuple[str, Any]]:
    """``("header", {...})``, ``("user", {...})`` ..., then per table ``("table",
    {"table", "fields", "rows": <iterator of rows>})``; the rows must be consumed before
    the next event."""
    first = next((line for line in lines if line.strip()), "")
    try:
        header = json.loads(first)
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict):  # version 1: one JSON document over many lines
        yield from _events_v1(_v1_text(first, lines))
        return
    _check_text(header, lines.number)
    _check_header(header)
    yield "header", header
    read = 0
    for line in lines:
        if not line.strip():
            continue
        item = _parse(line, lines.number)
        if not isinstance(item, dict):
            raise BackupError(BAD_LINE.format(line=lines.number, problem="a row outside a table"))
        if "user" in item:
            if not isinstance(item["user"], dict):
                raise BackupError(BAD_LINE.format(line=lines.number, problem="not an account"))
            yield "user", item["user"]
        elif "table" in item:
            _check_table(item, lines.number)
            rows = _table_rows(lines, item)
            yield "table", {**item, "count": item["rows"], "rows": rows}
            for _ in rows:  # the consumer stopped early: skip to the next table
                pass
            read += item["rows"]
        elif item.get("end"):
            return
        else:
            raise BackupError(BAD_LINE.format(line=lines.number, problem="an unknown line"))
    raise BackupError(CUT_SHORT.format(rows=read))


def _check_table(item: dict[str, Any], number: int) -> None:
    fields, rows = item.get("fields"), item.get("rows")
    if (
        not isinstance(item["table"], str)
        or not isinstance(fields, list)
        or not all(isinstance(f, str) for f in fields)
        or not isinstance(rows, int)
        or isinstance(rows, bool)
        or rows < 0
    ):
        raise BackupError(BAD_LINE.format(line=number, problem="not a table's heading"))


def _v1_text(first: str, lines: _Lines) -> str:
    """A version 1 file's text, read whole up to ``MAX_V1`` characters."""
    parts, size = [first], len(first)
    for line in lines:
        size += len(line)
        if size > MAX_V1:
            raise BackupError(V1_TOO_BIG.format(limit=MAX_V1))
        parts.append(line)
    return "".join(parts)


def _table_rows(lines: _Lines, table: dict[str, Any]) -> Iterator[list[Any]]:
    expected = int(table["rows"])
    width = len(table["fields"])
    for done in range(expected):
        line = next(lines, None)
        if line is None:
            raise BackupError(CUT_SHORT.format(rows=done))
        row = _parse(line, lines.number)
        if not isinstance(row, list) or len(row) != width:
            raise BackupError(
                BAD_LINE.format(line=lines.number, problem=f"not a row of {table['table']}")
            )
        yield row


def _check_header(header: dict[str, Any]) -> None:
    if header.get("format") != FORMAT:
        raise BackupError(NOT_A_BACKUP)
    version = header.get("format_version", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        raise BackupError(NOT_A_BACKUP)
    if version > FORMAT_VERSION:
        raise BackupError(NEWER_FORMAT.format(found=version))
    if not isinstance(header.get("rows", 0), int):
        raise BackupError(NOT_A_BACKUP)


def _events_v1(text: str) -> Iterator[tuple[str, Any]]:
    try:
        data = json.loads(text)
    except RecursionError as exc:
        raise BackupError(TOO_DEEP.format(line=1, depth=MAX_DEPTH)) from exc
    except ValueError as exc:
        raise BackupError(NOT_A_BACKUP) from exc
    if not isinstance(data, dict) or not isinstance(data.get("tables"), dict):
        raise BackupError(NOT_A_BACKUP)
    _check_header(data)
    _check_text(data, 1)
    tables = data["tables"]
    users = data.get("users", {})
    if not isinstance(users, dict) or not all(
        isinstance(v, list) and all(isinstance(r, dict) for r in v) for v in tables.values()
    ):
        raise BackupError(NOT_A_BACKUP)
    rows = sum(len(v) for v in tables.values())
    header = {k: v for k, v in data.items() if k not in ("tables", "users")}
    yield "header", {**header, "rows": rows}
    for old_id, info in users.items():
        if not str(old_id).isdigit() or not isinstance(info, dict):
            raise BackupError(NOT_A_BACKUP)
        yield "user", {"id": int(old_id), **info}
    for label, table in tables.items():
        if not table:
            continue
        fields = list(table[0])
        yield (
            "table",
            {
                "table": label,
                "fields": fields,
                "count": len(table),
                "rows": ([r.get(f) for f in fields] for r in table),
            },
        )


# --- import --------------------------------------------------------------------------


@dataclass
class ImportResult:
    club: Club | None = None
    rows: int = 0
    ids_kept: int = 0  # rows that kept their id
    accounts_created: int = 0
    accounts_inactive: int = 0  # of those, deactivated (and kept so)
    accounts_existing: int = 0  # matched by username and left as they are
    accounts_staff: int = 0  # created with staff status (``restore_staff``)
    accounts_staff_dropped: int = 0  # staff in the backup, created without it
    calendar_links: int = 0
    calendar_links_changed: int = 0  # a new key or a new team id: members subscribe again


@dataclass
class _Import:
    """What one import has learnt so far: the new id of every old one, per model."""

    own: set[type[models.Model]]
    referenced: set[type[models.Model]]  # the models some row points to: their ids are kept
    result: ImportResult = field(default_factory=ImportResult)
    user_ids: dict[str, int] = field(default_factory=dict)
    new_ids: dict[type[models.Model], dict[Any, Any]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    deferred: list[tuple[type[models.Model], Any, str, Any, int | str]] = field(
        default_factory=list
    )
    kept: set[type[models.Model]] = field(default_factory=set)
    renumbered: set[str] = field(default_factory=set)  # tables where some row got a new id
    seen: set[str] = field(default_factory=set)
    rebuild: bool = False
    teams_renumbered: set[Any] = field(default_factory=set)
    restore_staff: bool = False
    lines: _Lines | None = None

    @property
    def line(self) -> int | str:
        """The number of the line being read (for a refusal's message)."""
        return self.lines.number if self.lines is not None else "?"

    def ids_stable(self) -> bool:
        """Whether every id a standings row's keys may hold is still the backup's."""
        return self.seen >= IDS_IN_KEYS and not (IDS_IN_KEYS & self.renumbered)


def club_import(
    *,
    lines: Iterable[str],
    slug: str | None = None,
    name: str | None = None,
    progress: Progress | None = None,
    restore_staff: bool = False,
) -> ImportResult:
    """Load a backup (either format) read line by line, whole or not at all.
    ``slug``/``name`` rename the club (a copy beside the original); ``restore_staff`` keeps
    the backup's staff flag on the accounts it creates (otherwise they are created without).

    A bad file raises :class:`BackupError` with one line saying what is wrong (and where),
    whatever the fault, and nothing is written: the import is one transaction, and a fault
    the checks before the insert did not name (the database refusing a row) is named by
    the database's first line."""
    reader = _Lines(lines)
    try:
        return _club_import(reader, slug, name, progress, restore_staff)
    except BackupError:
        raise
    except DatabaseError as exc:
        problem = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BackupError(DOES_NOT_FIT.format(problem=problem[:300].rstrip("."))) from exc
    except (ValidationError, ValueError, TypeError, KeyError, AttributeError) as exc:
        # A value of a shape the format does not have (checked field by field, this is
        # what is left): the line and the fault, never a traceback.
        problem = f"{type(exc).__name__}: {str(exc)[:200]}"
        raise BackupError(BAD_LINE.format(line=reader.number, problem=problem)) from exc


@transaction.atomic
def _club_import(
    reader: _Lines,
    slug: str | None,
    name: str | None,
    progress: Progress | None,
    restore_staff: bool,
) -> ImportResult:
    by_label = {_label(m): m for m in _club_paths()}
    own = set(by_label.values())
    state = _Import(own=own, referenced={f.related_model for m in own for f in _forward_fks(m)})
    state.restore_staff, state.lines = restore_staff, reader
    total = 0
    for kind, value in _events(reader):
        if kind == "header":
            total = int(value.get("rows") or 0)
            continue
        if kind == "user":
            _user(value, state)
            continue
        label = MOVED.get(value["table"], value["table"])
        model = by_label.get(label)
        if model is None:
            raise BackupError(UNKNOWN_MODEL.format(model=value["table"]))
        state.seen.add(label)
        if label in RECOMPUTED or (label in REBUILT and (state.rebuild or label not in REKEYED)):
            state.rebuild = state.rebuild or label not in RECOMPUTED
            for _ in value["rows"]:  # recomputed from the games at the end, for the new ids
                pass
            if progress is not None:
                progress(value["count"], total)
            continue
        table = _TableLoader(model, value["fields"], state)
        if label in REKEYED and not state.ids_stable():
            table.rekey = REKEYED[label]
        if model is Club:
            if value["count"] != 1:
                raise BackupError(ONE_CLUB.format(count=value["count"]))
            table.rename = (slug, name)
        batch: list[list[Any]] = []
        for row in value["rows"]:
            batch.append(row)
            if len(batch) >= BATCH:
                table.load(batch)
                if progress is not None:
                    progress(len(batch), total)
                batch = []
        if batch:
            table.load(batch)
            if progress is not None:
                progress(len(batch), total)
    for model, old_pk, attname, old, line in state.deferred:
        target = model._meta.get_field(attname.removesuffix("_id")).related_model
        if old not in state.new_ids[target]:
            raise BackupError(
                POINTS_OUTSIDE.format(
                    line=line, table=_label(model), field=attname, target=_label(target), value=old
                )
            )
        model._default_manager.filter(pk=state.new_ids[model][old_pk]).update(
            **{attname: state.new_ids[target][old]}
        )
    store.sequences_reset(state.kept)
    if not state.new_ids[Club]:
        raise BackupError(NOT_A_BACKUP)
    if len(state.new_ids[Club]) != 1:
        raise BackupError(ONE_CLUB.format(count=len(state.new_ids[Club])))
    club = Club.objects.get(pk=next(iter(state.new_ids[Club].values())))
    if state.rebuild:
        _rebuild_derived(club)
    else:
        _recompute_totals(club)
    state.result.club = club
    return state.result


class _TableLoader:
    """Inserts one table's rows in batches: ids kept while they are free, references
    rewritten, the backup's timestamps put back over ``auto_now``."""

    def __init__(self, model: type[models.Model], fields: list[str], state: _Import) -> None:
        self.model = model
        self.state = state
        self.user_model = get_user_model()
        concrete = {f.attname: f for f in model._meta.concrete_fields}
        self.columns = [(i, concrete[name]) for i, name in enumerate(fields) if name in concrete]
        self.pk_index = fields.index(model._meta.pk.attname)
        self.timestamps = [
            (i, f)
            for i, f in self.columns
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        self.rename: tuple[str | None, str | None] | None = None
        self.keeping = True  # ids are kept until one is taken; then new ids for the rest
        self.points_forward = False  # some of its references are set after the insert
        self.rekey: Callable[[Any, _Import], bool] | None = None  # keys holding ids

    def load(self, batch: list[list[Any]]) -> None:
        model, state = self.model, self.state
        if self.rekey is not None and state.rebuild:
            return  # recomputed at the end instead
        old_pks = [row[self.pk_index] for row in batch]
        if self.keeping and model._default_manager.filter(pk__in=old_pks).exists():
            self.keeping = False
            # The database's next ids must come after those kept so far (PostgreSQL).
            store.sequences_reset([model] if model in state.kept else [])
        objs = [self._object(row) for row in batch]
        if self.rekey is not None and not all(self.rekey(obj, state) for obj in objs):
            # A key names a row the backup did not hold: recompute the standings instead
            # (``_rebuild_derived`` replaces whatever of them was loaded so far).
            state.rebuild = True
            return
        if _label(model) == "scheduling.feedkey":
            self._feed_keys(objs)
        if model._meta.parents:
            for obj in objs:  # multi-table inheritance: bulk_create cannot
                obj.save(force_insert=True)
        else:
            model._default_manager.bulk_create(objs, batch_size=BATCH)
        if model in state.referenced or self.points_forward:
            # Only what some row points to: a deal's or a seat's id is never looked up,
            # so the map stays the size of the games, not of the deals.
            ids = state.new_ids[model]
            for old, obj in zip(old_pks, objs, strict=True):
                ids[old] = obj.pk
        if self.keeping:
            state.kept.add(model)
            state.result.ids_kept += len(objs)
        else:
            state.renumbered.add(_label(model))
            if _label(model) == "leagues.team":
                state.teams_renumbered.update(obj.pk for obj in objs)
        state.result.rows += len(objs)
        if self.timestamps:  # auto_now(_add) were set to now on insert; put the backup's back
            for row, obj in zip(batch, objs, strict=True):
                for i, f in self.timestamps:
                    setattr(obj, f.attname, f.to_python(row[i]))
            model._default_manager.bulk_update(
                objs, [f.name for _, f in self.timestamps], batch_size=BATCH
            )

    def _object(self, row: list[Any]) -> models.Model:
        state = self.state
        values: dict[str, Any] = {}
        for i, f in self.columns:
            value = row[i]
            if f.primary_key and not f.is_relation:
                value = _checked(f, value, self.model, state.line)
                if self.keeping:
                    values[f.attname] = value
                continue
            if f.is_relation and value is not None:
                value = self._reference(f, value, row)
            elif value is not None:
                value = _checked(f, value, self.model, state.line)
            values[f.attname] = value
        if self.rename is not None:
            slug, name = self.rename
            values["slug"] = slug or values["slug"]
            values["name"] = name or values["name"]
            if Club.objects.filter(slug=values["slug"]).exists():
                raise BackupError(SLUG_TAKEN.format(slug=values["slug"]))
        return self.model(**values)

    def _reference(self, f: Any, value: Any, row: list[Any]) -> Any:
        """The id a reference takes: an account's, or a row's of the backup (kept or new);
        a row pointing to anything the backup does not hold (another club's row, an
        account not among its accounts) is refused."""
        state, target = self.state, f.related_model
        if not isinstance(value, (int, str)) or isinstance(value, bool):
            raise BackupError(
                BAD_VALUE.format(
                    line=state.line, table=_label(self.model), field=f.attname, problem="not an id."
                )
            )
        if target is self.user_model:
            if str(value) in state.user_ids:
                return state.user_ids[str(value)]
        elif value in state.new_ids.get(target, {}):
            return state.new_ids[target][value]
        elif (
            target in state.own
            and f.null
            and (target is self.model or _label(target) not in state.seen)
        ):
            # points forward (a cycle): set after the target exists, if the backup has it
            state.deferred.append((self.model, row[self.pk_index], f.attname, value, state.line))
            self.points_forward = True
            return None
        raise BackupError(
            POINTS_OUTSIDE.format(
                line=state.line,
                table=_label(self.model),
                field=f.attname,
                target=_label(target),
                value=value,
            )
        )

    def _feed_keys(self, objs: list[Any]) -> None:
        """A calendar key already in use (the original club is still here) is replaced;
        a key whose team got a new id has a new address. Either way its member must
        subscribe again from the team's page, and the import says how many."""
        result = self.state.result
        taken = set(
            self.model._default_manager.filter(key__in=[o.key for o in objs]).values_list(
                "key", flat=True
            )
        )
        for obj in objs:
            result.calendar_links += 1
            if obj.key in taken:
                obj.key = secrets.token_urlsafe(24)
                result.calendar_links_changed += 1
            elif obj.team_id in self.state.teams_renumbered:
                result.calendar_links_changed += 1


def _new_id(state: _Import, label: str, old: str) -> Any:
    """The new id of a row of ``label`` whose backup id is ``old`` (digits); None if the
    backup held no such row."""
    if not old.isdigit():
        return None
    return state.new_ids.get(apps.get_model(label), {}).get(int(old))


def _rekey_contribution(obj: Any, state: _Import) -> bool:
    """A match key names its fixture (``f7``) or its game outside the schedule (``g12``):
    the same match under the new ids."""
    label = {"f": "scheduling.fixture", "g": "games.game"}.get(obj.match_key[:1])
    new = _new_id(state, label, obj.match_key[1:]) if label else None
    if new is None:
        return False
    obj.match_key = f"{obj.match_key[0]}{new}"
    return True


def _rekey_partnership(obj: Any, state: _Import) -> bool:
    """A partnership's key is its players' ids, sorted, joined by '-': the new ids, sorted."""
    ids = [_new_id(state, "clubs.player", old) for old in obj.key.split("-")]
    if None in ids:
        return False
    obj.key = "-".join(str(i) for i in sorted(ids))
    return True


#: Derived tables with ids in a key, and how a copy rewrites them, so that its standings
#: are loaded as they are (the match and partnership keys under the new ids) instead of
#: recomputed. The other derived tables hold ids only in foreign keys, remapped as any.
REKEYED: dict[str, Callable[[Any, _Import], bool]] = {
    "standings.teamstanding": lambda obj, state: True,
    "standings.standingcontribution": _rekey_contribution,
    "standings.playergamestat": lambda obj, state: True,
    "standings.partnershipgamestat": _rekey_partnership,
}


def _rebuild_derived(club: Club) -> None:
    """Standings are keyed by match keys that hold ids ("g12", "f7"), which no foreign key
    remaps; they are derived from the games, so they are recomputed for the new ids."""
    from clabber_league.standings.services.rebuild import standings_rebuild

    for division in club.divisions.all():
        standings_rebuild(division=division)


def _recompute_totals(club: Club) -> None:
    """The leaderboards' totals, added up from the game lines just loaded."""
    from clabber_league.standings.services.totals import totals_rebuild

    totals_rebuild(division_ids=club.divisions.values_list("pk", flat=True))


#: An account's text fields as a backup gives them (each checked against its column).
USER_TEXT = ("username", "email", "first_name", "last_name", "password")


def _checked(f: Any, value: Any, model: type[models.Model], line: int | str) -> Any:
    """``value`` as column ``f`` stores it, or a refusal naming the line and the field: a
    value the column cannot take (its length, its integer range, its type)."""
    try:
        value = f.to_python(value)
    except (ValidationError, ValueError, TypeError) as exc:
        problem = "; ".join(getattr(exc, "messages", None) or [str(exc)])
        where = {"line": line, "table": _label(model), "field": f.attname}
        raise BackupError(BAD_VALUE.format(**where, problem=problem[:200])) from exc
    most, low, high = _limits(f)
    if most is not None and isinstance(value, str) and len(value) > most:
        where = {"line": line, "table": _label(model), "field": f.attname}
        raise BackupError(TOO_LONG.format(**where, length=len(value), most=most))
    if low is not None and isinstance(value, int) and not low <= value <= high:
        where = {"line": line, "table": _label(model), "field": f.attname}
        raise BackupError(OUT_OF_RANGE.format(**where, value=value, low=low, high=high))
    return value


@functools.cache
def _limits(f: Any) -> tuple[int | None, int | None, int | None]:
    """A column's longest text and its integer range: PostgreSQL's ranges whatever the
    database (SQLite's integers are all 64-bit), so a file refused on one is refused on the
    other."""
    low, high = BaseDatabaseOperations.integer_field_ranges.get(f.get_internal_type(), (None, None))
    return getattr(f, "max_length", None), low, high


def _user(info: dict[str, Any], state: _Import) -> None:
    user_model = get_user_model()
    old_id = info.get("id")
    if not isinstance(old_id, (int, str)) or isinstance(old_id, bool):
        raise BackupError(BAD_LINE.format(line=state.line, problem="an account without its id"))
    texts = {}
    for name in USER_TEXT:
        value = info.get(name, "")
        if name == "username" and not (isinstance(value, str) and value):
            raise BackupError(BAD_LINE.format(line=state.line, problem="an account without a name"))
        column = user_model._meta.get_field(name)
        texts[name] = _checked(column, value or "", user_model, state.line)
    user = user_model.objects.filter(username=texts["username"]).first()
    if user is None:
        user = user_model(
            username=texts["username"],
            email=texts["email"],
            first_name=texts["first_name"],
            last_name=texts["last_name"],
        )
        for flag in USER_FLAGS:
            if flag in info:
                setattr(user, flag, bool(info[flag]))
        if user.is_staff and not state.restore_staff:
            user.is_staff = False  # the Django admin only when the operator says so
            state.result.accounts_staff_dropped += 1
        state.result.accounts_staff += 1 if user.is_staff else 0
        user.password = texts["password"] or "!"
        user.save()
        state.result.accounts_created += 1
        state.result.accounts_inactive += 0 if user.is_active else 1
    else:
        state.result.accounts_existing += 1
    state.user_ids[str(old_id)] = user.pk


# --- deleting a club ---------------------------------------------------------------------


@transaction.atomic
def club_delete(*, club: Club) -> int:
    """Delete the club and every row that belongs to it (the tables of the export, last
    written first, so no row is left pointing at a removed one). The accounts stay: a
    person may belong to other clubs. Returns how many rows were deleted."""
    paths = _club_paths()
    deleted = 0
    for model in reversed(_ordered(paths)):
        if model is Club:
            continue
        deleted += model._default_manager.filter(**{paths[model]: club.pk}).delete()[0]
    deleted += Club.objects.filter(pk=club.pk).delete()[0]
    return deleted
