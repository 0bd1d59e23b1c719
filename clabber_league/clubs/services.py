"""Writes to a club's membership.

A club always keeps a club admin: the last one can neither demote themselves nor be
removed, or nobody could manage the club again. The club's admin rows are locked while
one changes, so two admins demoting each other at the same moment cannot both succeed.
"""

from __future__ import annotations

from django.db import transaction

from .models import Membership, Role

LAST_ADMIN = "A club keeps at least one club admin: make someone else club admin first."


class ClubError(Exception):
    """A refused write; ``errors`` are ``{"field", "message"}``."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(e["message"] for e in errors))


def _check_admins_left(membership: Membership, *, role_after: str | None) -> None:
    if membership.role != Role.ADMIN or role_after == Role.ADMIN:
        return
    admins = list(
        Membership.objects.select_for_update()
        .filter(club_id=membership.club_id, role=Role.ADMIN)
        .values_list("pk", flat=True)
    )
    if not [pk for pk in admins if pk != membership.pk]:
        raise ClubError([{"field": "role", "message": LAST_ADMIN}])


@transaction.atomic
def membership_update(*, membership: Membership, role: str | None = None, **fields) -> Membership:
    """Change a member's role (and other fields): never the club's last admin's."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if role is not None:
        _check_admins_left(membership, role_after=role)
        membership.role = role
    for name, value in fields.items():
        setattr(membership, name, value)
    membership.save()
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a member from the club: never the club's last admin."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    _check_admins_left(membership, role_after=None)
    membership.delete()
