"""A federation imports a results file (an officer's upload, or a club's push through the
API) and closes its periods. Pages and API call these same services.

The import checks the file against the published schema, then what the file says of
itself (``exchange.checks``), then what only this site knows (the club is a member, the
period is open); every problem found is one error entry and nothing is written. A file
already imported (same SHA-256 of its canonical JSON) is answered again, unchanged; a file
for an event already imported from the same club replaces the earlier one, which is kept
as ``replaced`` with its rows. Unknown, inactive or merged numbers are imported, flagged.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from importlib import resources
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from clabber_league.clubs import tokens
from clabber_league.clubs.access import access_for
from clabber_league.core.errors import FORBIDDEN, ServiceError, conflict
from clabber_league.federation.models import Federation
from clabber_league.ranking.services import ranking_results_changed

from . import building, checks, selectors
from .messages import (
    NOT_A_MEMBER,
    NOT_JSON,
    NOT_YOUR_CLUB,
    OLDER_FILE,
    PERIOD_ALREADY_CLOSED,
    PERIOD_CLOSED,
    PERIOD_DATES,
    PERIOD_OVERLAPS,
    SCHEMA,
    msg,
)
from .models import Flag, ImportedGame, ImportedResult, Period, ResultFile

#: The largest file taken (a season of a big division with every deal fits well within).
MAX_BYTES = 20 * 1024 * 1024


class ExchangeError(ServiceError):
    pass


@functools.cache
def schema() -> dict[str, Any]:
    text = resources.files("clabber_league.exchange").joinpath("schemas/results-v1.schema.json")
    return json.loads(text.read_text(encoding="utf-8"))


def parse(content: bytes | str) -> Any:
    """The file's content as JSON data: JSON as it is, or the XML form turned into it."""
    if isinstance(content, bytes):
        if len(content) > MAX_BYTES:
            raise ExchangeError.one("file", msg(NOT_JSON, reason=f"larger than {MAX_BYTES} bytes"))
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ExchangeError.one("file", msg(NOT_JSON, reason="not UTF-8")) from exc
    if content.lstrip().startswith("<"):
        try:
            return building.from_xml(content)
        except building.XMLFormError as exc:
            raise ExchangeError.one("file", msg(NOT_JSON, reason=str(exc))) from exc
    try:
        return json.loads(content)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ExchangeError.one("file", msg(NOT_JSON, reason=str(exc))) from exc


def _path(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@functools.cache
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(
        schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def schema_errors(payload: Any) -> list[dict[str, str]]:
    """One entry per place the file breaks the schema (the first error at each place)."""
    validator = _validator()
    errors = []
    seen = set()
    for error in sorted(validator.iter_errors(payload), key=lambda e: list(e.absolute_path)):
        path = list(error.absolute_path)
        if error.validator == "required":
            missing = str(error.message).split("'")[1] if "'" in error.message else ""
            path = [*path, missing] if missing else path
        field = _path(path)
        if field in seen:
            continue
        seen.add(field)
        problem = error.message if len(error.message) < 300 else error.message[:297] + "..."
        errors.append({"field": field, "message": msg(SCHEMA, problem=problem)})
    return errors


def _caller_may_send(federation: Federation, club: Any, user: Any, scope: str | None) -> bool:
    """An officer of the federation uploads any member's file; a club's admin sends their
    own club's (with a token of the admin scope, or logged in)."""
    if user is None or not user.is_authenticated:
        return False
    if selectors.is_officer(federation=federation, user=user):
        return scope in (None, tokens.Scope.ADMIN)  # a read or score token sends nothing
    return tokens.scoped(access_for(club=club, user=user), scope).can("manage")


def result_file_import(
    *,
    federation: Federation,
    content: bytes | str | Any,
    user: Any,
    via: str = ResultFile.Via.UPLOAD,
    scope: str | None = None,
) -> tuple[ResultFile, bool]:
    """Import one results file into ``federation``: ``(file, True)`` when it was new,
    ``(file, False)`` for a file already imported (nothing written)."""
    payload = parse(content) if isinstance(content, (bytes, str)) else content
    errors = schema_errors(payload)
    if errors:
        raise ExchangeError(errors)
    errors = checks.semantic_errors(payload, federation=federation.slug)
    slug = payload["sender"]["club"]["slug"]
    club = selectors.member_club(federation=federation, slug=slug)
    if club is None:
        errors.append({"field": "sender.club.slug", "message": msg(NOT_A_MEMBER, club=slug)})
    checks.refuse_if_any(errors)
    if not _caller_may_send(federation, club, user, scope):
        raise ExchangeError.one("sender.club.slug", msg(NOT_YOUR_CLUB, club=slug), kind=FORBIDDEN)
    sha = building.digest(payload)
    with transaction.atomic():
        Federation.objects.select_for_update().filter(pk=federation.pk).first()
        same = ResultFile.objects.filter(federation=federation, sha256=sha).first()
        if same is not None:
            return same, False
        event = payload["event"]
        date_to = parse_date(event["date_to"])
        closed = Period.objects.filter(
            federation=federation, closed_at__isnull=False, start__lte=date_to, end__gte=date_to
        ).first()
        if closed is not None:
            raise ExchangeError(
                [
                    conflict(
                        "event.date_to",
                        msg(
                            PERIOD_CLOSED,
                            start=closed.start.isoformat(),
                            end=closed.end.isoformat(),
                        ),
                    )
                ]
            )
        generated_at = parse_datetime(payload["generated_at"])
        current = (
            ResultFile.objects.select_for_update()
            .filter(federation=federation, club=club, event_key=event["key"])
            .exclude(status=ResultFile.Status.REPLACED)
            .first()
        )
        if current is not None and current.generated_at and generated_at < current.generated_at:
            raise ExchangeError(
                [
                    conflict(
                        "generated_at",
                        msg(
                            OLDER_FILE,
                            made=payload["generated_at"],
                            current=current.generated_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        ),
                    )
                ]
            )
        if current is not None:
            current.status = ResultFile.Status.REPLACED
            current.save(update_fields=["status"])
        result_file = ResultFile.objects.create(
            federation=federation,
            club=club,
            event_key=event["key"],
            kind=event["kind"],
            name=event["name"],
            date_from=parse_date(event["date_from"]),
            date_to=date_to,
            sha256=sha,
            version=payload["version"],
            generated_at=generated_at,
            sender_site=payload["sender"]["site"] or "",
            payload=payload,
            via=via,
            uploaded_by=user if user is not None and user.is_authenticated else None,
        )
        if current is not None:
            current.replaced_by = result_file
            current.save(update_fields=["replaced_by"])
        _write_rows(federation, result_file, payload, date_to)
    return result_file, True


def _resolve(player: Any) -> tuple[Any, str]:
    """The record a number stands for, and its flag: a merged number's kept record."""
    if player is None:
        return None, Flag.UNKNOWN
    flag = ""
    seen = set()
    while player.merged_into_id and player.pk not in seen:
        seen.add(player.pk)
        flag = Flag.MERGED
        player = player.merged_into
    if not player.active or player.erased_at is not None:
        return player, Flag.INACTIVE
    return player, flag


def _write_rows(
    federation: Federation, result_file: ResultFile, payload: dict[str, Any], date: dt.date
) -> None:
    rows = checks.player_results(payload, federation=federation.slug)
    known = selectors.players_by_number(
        federation=federation, numbers=[r.number for r in rows if r.number]
    )
    rules = payload["event"]["rules"]
    results, flags, record_of = [], [], {}
    for row in rows:
        record, flag = _resolve(known.get(row.number)) if row.number else (None, "")
        record_of[row.player] = record.pk if record is not None and flag != Flag.UNKNOWN else None
        if flag:
            flags.append(
                {"player": row.player, "name": row.name, "number": row.number, "flag": flag}
            )
        results.append(
            ImportedResult(
                result_file=result_file,
                federation=federation,
                federation_player=record if flag != Flag.UNKNOWN else None,
                number=row.number,
                player_ref=row.player,
                player_name=row.name,
                kind=result_file.kind,
                date=date,
                side=row.side,
                place=row.place,
                places=row.places,
                score=row.score,
                score_share=row.share,
                games=row.games,
                rules=rules,
                flag=flag,
            )
        )
    ImportedResult.objects.bulk_create(results)
    games = []
    for game in payload["games"]:
        if game["status"] not in ("finished", "confirmed"):
            continue
        sides = checks.game_sides(game)
        for side in sides:
            side["refs"] = side["players"]
            side["players"] = [record_of.get(ref) for ref in side["refs"]]
        games.append(
            ImportedGame(
                result_file=result_file,
                federation=federation,
                game_ref=game["id"],
                date=parse_date(game["date"]) if game["date"] else date,
                rules=game["rules"],
                sides=sides,
            )
        )
    ImportedGame.objects.bulk_create(games)
    if flags:
        result_file.flags = flags
        result_file.save(update_fields=["flags"])


# --- periods ----------------------------------------------------------------------------------


def period_create(*, federation: Federation, start: dt.date, end: dt.date) -> Period:
    if end < start:
        raise ExchangeError.one("end", msg(PERIOD_DATES))
    overlap = Period.objects.filter(federation=federation, start__lte=end, end__gte=start).first()
    if overlap is not None:
        raise ExchangeError.one(
            "start",
            msg(PERIOD_OVERLAPS, start=overlap.start.isoformat(), end=overlap.end.isoformat()),
        )
    return Period.objects.create(federation=federation, start=start, end=end)


def period_close(*, period: Period, user: Any) -> int:
    """Close the period: the current files of its dates become final. How many did."""
    with transaction.atomic():
        period = Period.objects.select_for_update().get(pk=period.pk)
        if period.closed_at is not None:
            raise ExchangeError([conflict("", msg(PERIOD_ALREADY_CLOSED))])
        now = timezone.now()
        period.closed_at, period.closed_by = now, user
        period.save(update_fields=["closed_at", "closed_by"])
        finalised = ResultFile.objects.filter(
            federation=period.federation_id,
            status=ResultFile.Status.PROVISIONAL,
            date_to__gte=period.start,
            date_to__lte=period.end,
        ).update(status=ResultFile.Status.FINAL, finalised_at=now)
        if finalised:
            # Final results count in the national ranking: replayed from the period's start.
            ranking_results_changed(federation_id=period.federation_id, since=period.start)
        return finalised


# --- erasure ----------------------------------------------------------------------------------


def results_anonymise_erased(*, federation_player: Any, name: str, **_: Any) -> None:
    """``federation.hooks.player_erased``: the record's imported results take its
    anonymous name (the erasure's transaction is still open: one change, or none)."""
    results_anonymise(federation_player=federation_player, name=name)


def results_anonymise(*, federation_player: Any, name: str) -> int:
    """A player erased (issue 34: results stay, under an anonymous name): their name in
    every imported row and file of the federation becomes ``name``. The files keep their
    SHA-256 (the identity of the file as received). For the federation app's erasure to
    call through a hook (this app sits above it). How many rows changed."""
    with transaction.atomic():
        rows = list(
            ImportedResult.objects.select_for_update()
            .filter(federation_player=federation_player)
            .select_related("result_file")
        )
        refs: dict[int, set[str]] = {}
        for row in rows:
            refs.setdefault(row.result_file_id, set()).add(row.player_ref)
        for result_file in ResultFile.objects.select_for_update().filter(pk__in=list(refs)):
            payload = result_file.payload
            for player in payload.get("players", []):
                if player.get("id") in refs[result_file.pk]:
                    player["name"] = name
            for side in payload.get("sides", []):
                if side.get("id") in refs[result_file.pk]:  # a player placed on their own
                    side["name"] = name
            for flag in result_file.flags or []:
                if flag.get("player") in refs[result_file.pk]:
                    flag["name"] = name
            result_file.save(update_fields=["payload", "flags"])
        return ImportedResult.objects.filter(pk__in=[r.pk for r in rows]).update(player_name=name)
