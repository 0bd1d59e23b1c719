"""Whose names a page may show, to whom.

On the public pages of a public club (anyone may read them) a player who chose so is
shown by their initials (``Player.name_public``); the club's members always see names.
Usernames (logins) are never shown outside the club. Every page and API that shows a
player's name asks here.
"""

from __future__ import annotations

from typing import Any

from .models import initials


def sees_names(access: Any) -> bool:
    """Whether the person behind ``access`` (a ``ClubAccess``) is a member of the club."""
    return getattr(access, "membership", None) is not None


def shown(name: str, name_public: bool, *, to_member: bool) -> str:
    """A player's name as shown to someone (``to_member``: a member of the club)."""
    if not name:
        return name
    return name if to_member or name_public else initials(name)
