"""A whole club as one JSON document, and back: ``manage.py export_club`` / ``import_club``.

The export holds every row that belongs to the club, found by following foreign keys
to ``Club`` through the project's own apps (clubs, leagues, scheduling, games, standings,
...), so a model added later is included without a change here. Rows keep their ids in
the file; the import gives them new ids and rewrites every reference, so a backup can be
restored into another database, or beside the original under another slug. People are
matched by username; one who does not exist yet is created with the password hash of
the backup, so their login still works.

A backup holds password hashes and email addresses: keep it as safe as the database.
"""

from __future__ import annotations

import datetime
from collections import defaultdict, deque
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction

from clabber_league import __version__
from clabber_league.clubs.models import Club

FORMAT = "clabber-league-club-backup"
FORMAT_VERSION = 1
OWN_APPS = ("clubs", "leagues", "scheduling", "games", "standings")
NOT_A_BACKUP = "This file is not a Clabber League club backup."
NEWER_FORMAT = "This backup was written by a newer version (format {found}); upgrade first."
SLUG_TAKEN = "A club with the slug {slug!r} already exists; import under another --slug."
UNKNOWN_MODEL = "The backup holds rows of {model}, which this version does not know."
JSON_ENCODER = DjangoJSONEncoder


class BackupError(Exception):
    pass


# --- which rows belong to a club ------------------------------------------------------


def _club_paths() -> dict[type[models.Model], str]:
    """For each model of our apps, the ORM path from it to its club (``club`` or
    ``config__club`` ...), found breadth-first along non-null-able and null-able FKs."""
    paths: dict[type[models.Model], str] = {Club: "pk"}
    candidates = [
        m
        for label in OWN_APPS
        if label in apps.app_configs
        for m in apps.get_app_config(label).get_models()
    ]
    changed = True
    while changed:
        changed = False
        for model in candidates:
            if model in paths:
                continue
            for field in _forward_fks(model):
                target = field.related_model
                if target in paths:
                    rest = paths[target]
                    paths[model] = field.name if rest == "pk" else f"{field.name}__{rest}"
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
    # Multi-table inheritance parents come first too.
    for m in models_:
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


def club_export(*, club: Club) -> dict[str, Any]:
    """Every row of the club, in an order that can be loaded back."""
    paths = _club_paths()
    user_model = get_user_model()
    users: dict[int, dict[str, Any]] = {}
    tables: dict[str, list[dict[str, Any]]] = {}
    for model in _ordered(paths):
        if model._meta.proxy or model._meta.abstract:
            continue
        path = paths[model]
        queryset = model._default_manager.filter(**{path: club.pk}).order_by("pk")
        rows = []
        for obj in queryset.iterator(chunk_size=2000):
            row: dict[str, Any] = {}
            for field in model._meta.concrete_fields:
                value = getattr(obj, field.attname)
                row[field.attname] = value
                if field.is_relation and field.related_model is user_model and value:
                    users[value] = {}
            rows.append(row)
        tables[_label(model)] = rows
    for user in user_model.objects.filter(pk__in=users):
        users[user.pk] = {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "password": user.password,
            "first_name": getattr(user, "first_name", ""),
            "last_name": getattr(user, "last_name", ""),
        }
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "exported_at": datetime.datetime.now(datetime.UTC).isoformat(),
        "club": club.slug,
        "users": {str(k): v for k, v in users.items()},
        "tables": tables,
    }


# --- import --------------------------------------------------------------------------


@transaction.atomic
def club_import(*, data: dict[str, Any], slug: str | None = None, name: str | None = None) -> Club:
    """Load a backup, whole or not at all. ``slug``/``name`` rename the club (a copy)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(NOT_A_BACKUP)
    if int(data.get("format_version", 0)) > FORMAT_VERSION:
        raise BackupError(NEWER_FORMAT.format(found=data.get("format_version")))
    by_label = {_label(m): m for m in _club_paths()}
    unknown = [label for label in data["tables"] if label not in by_label]
    if unknown:
        raise BackupError(UNKNOWN_MODEL.format(model=unknown[0]))
    club_rows = data["tables"][_label(Club)]
    target_slug = slug or club_rows[0]["slug"]
    if Club.objects.filter(slug=target_slug).exists():
        raise BackupError(SLUG_TAKEN.format(slug=target_slug))

    user_ids = _users(data.get("users", {}))
    user_model = get_user_model()
    new_ids: dict[type[models.Model], dict[Any, Any]] = defaultdict(dict)
    deferred: list[tuple[type[models.Model], Any, str, Any]] = []
    for model in _ordered(by_label.values()):
        rows = data["tables"].get(_label(model), [])
        if not rows:
            continue
        timestamps = [
            f
            for f in model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        created = []
        for row in rows:
            values: dict[str, Any] = {}
            for field in model._meta.concrete_fields:
                if field.attname not in row:
                    continue
                value = row[field.attname]
                if field.primary_key and not field.is_relation:
                    continue  # a new id
                if field.is_relation and value is not None:
                    target = field.related_model
                    if target is user_model:
                        value = user_ids.get(str(value))
                    elif target in new_ids and value in new_ids[target]:
                        value = new_ids[target][value]
                    elif target in by_label.values():
                        # points forward (a cycle): set after the target exists
                        deferred.append((model, row, field.attname, value))
                        value = None
                    # else: a row outside the club (kept as is)
                elif value is not None:
                    value = field.to_python(value)
                values[field.attname] = value
            if model is Club:
                values["slug"] = target_slug
                if name:
                    values["name"] = name
            obj = model(**values)
            created.append((row, obj))
        objs = [obj for _, obj in created]
        if model._meta.parents:
            for obj in objs:  # multi-table inheritance: bulk_create cannot
                obj.save(force_insert=True)
        else:
            model._default_manager.bulk_create(objs, batch_size=1000)
        for row, obj in created:
            new_ids[model][row[model._meta.pk.attname]] = obj.pk
        if timestamps:  # auto_now(_add) were set to now on insert; put the backup's back
            for row, obj in created:
                for field in timestamps:
                    setattr(obj, field.attname, field.to_python(row[field.attname]))
            model._default_manager.bulk_update(objs, [f.name for f in timestamps], batch_size=1000)
    for model, row, attname, old in deferred:
        target = model._meta.get_field(attname.removesuffix("_id")).related_model
        model._default_manager.filter(pk=new_ids[model][row[model._meta.pk.attname]]).update(
            **{attname: new_ids[target].get(old)}
        )
    club = Club.objects.get(slug=target_slug)
    _rebuild_derived(club)
    return club


def _rebuild_derived(club: Club) -> None:
    """Standings are keyed by match keys that hold ids ("g12", "f7"), which no foreign key
    remaps; they are derived from the games, so they are recomputed for the new ids."""
    from clabber_league.standings.services.rebuild import standings_rebuild

    for division in club.divisions.all():
        standings_rebuild(division=division)


def _users(users: dict[str, dict[str, Any]]) -> dict[str, int]:
    user_model = get_user_model()
    ids = {}
    for old_id, info in users.items():
        user = user_model.objects.filter(username=info["username"]).first()
        if user is None:
            user = user_model(
                username=info["username"],
                email=info.get("email", ""),
                first_name=info.get("first_name", ""),
                last_name=info.get("last_name", ""),
            )
            user.password = info.get("password") or "!"
            user.save()
        ids[old_id] = user.pk
    return ids
