"""Two records of one person merged with an officer's approval, and the merge undone.

A merge moves the merged record's links to the kept one, retires the merged number
(``merged_into`` points to the kept record: the number is never given again and still
finds the person) and records what it changed in :class:`PlayerMerge`; the undo puts
exactly that back. Merges are undone in the reverse order: a record merged again since
must have that later merge undone first.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from clabber_league.core.errors import CONFLICT, NOT_FOUND
from clabber_league.rules.errors import msg

from ..access import FederationAccess
from ..models import FederationPlayer, PlayerLink, PlayerMerge
from . import errors as E
from .errors import FederationError
from .federations import require


@transaction.atomic
def player_merge(
    *,
    access: FederationAccess,
    kept: FederationPlayer,
    merged: FederationPlayer,
    reason: str = "",
) -> PlayerMerge:
    """``merged`` is the same person as ``kept``: its links move to ``kept`` and its number
    retires, pointing to ``kept``. Officers only."""
    require(access, "officer")
    for field, player in (("kept", kept), ("merged", merged)):
        if player.federation_id != access.federation.pk:
            raise FederationError.one(field, E.OTHER_FEDERATION, kind=NOT_FOUND)
    ids = sorted([kept.pk, merged.pk])
    locked = {p.pk: p for p in FederationPlayer.objects.select_for_update().filter(pk__in=ids)}
    kept, merged = locked[kept.pk], locked[merged.pk]
    if kept.pk == merged.pk:
        raise FederationError.one("merged", E.MERGE_SAME)
    errors = []
    for field, player in (("kept", kept), ("merged", merged)):
        if player.merged_into_id:
            errors.append(
                {
                    "field": field,
                    "message": msg(E.MERGE_ALREADY_MERGED, number=player.number),
                    "kind": CONFLICT,
                }
            )
        elif player.erased_at is not None:
            errors.append({"field": field, "message": E.MERGE_ERASED, "kind": CONFLICT})
    if errors:
        raise FederationError(errors)
    links = list(
        PlayerLink.objects.filter(federation_player=merged)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    PlayerLink.objects.filter(pk__in=links).update(federation_player=kept)
    state = {"active": merged.active}
    merged.merged_into = kept
    merged.active = False
    merged.save(update_fields=["merged_into", "active"])
    return PlayerMerge.objects.create(
        federation=access.federation,
        kept=kept,
        merged=merged,
        approved_by=access.user,
        reason=" ".join((reason or "").split())[:200],
        moved_links=links,
        merged_state=state,
    )


@transaction.atomic
def player_unmerge(*, access: FederationAccess, merge: PlayerMerge) -> PlayerMerge:
    """Undo a merge: the links it moved go back to the merged record, which is active as
    before and has its number back in use. Officers only."""
    require(access, "officer")
    if merge.federation_id != access.federation.pk:
        raise FederationError.one("merge", E.OTHER_FEDERATION, kind=NOT_FOUND)
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    if merge.undone_at is not None:
        raise FederationError.one("merge", E.UNMERGE_DONE, kind=CONFLICT)
    ids = sorted([merge.kept_id, merge.merged_id])
    locked = {p.pk: p for p in FederationPlayer.objects.select_for_update().filter(pk__in=ids)}
    kept, merged = locked[merge.kept_id], locked[merge.merged_id]
    if kept.erased_at is not None or merged.erased_at is not None:
        raise FederationError.one("merge", E.UNMERGE_ERASED, kind=CONFLICT)
    if kept.merged_into_id:
        raise FederationError.one("merge", msg(E.UNMERGE_LATER, number=kept.number), kind=CONFLICT)
    PlayerLink.objects.filter(pk__in=merge.moved_links, federation_player=kept).update(
        federation_player=merged
    )
    merged.merged_into = None
    merged.active = bool(merge.merged_state.get("active", True))
    merged.save(update_fields=["merged_into", "active"])
    merge.undone_at = timezone.now()
    merge.undone_by = access.user
    merge.save(update_fields=["undone_at", "undone_by"])
    return merge
