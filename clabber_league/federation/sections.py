"""The sections of a federation's home page: a plain list other apps add to.

The home page shows each section in turn: its template, given the federation, the
caller's ``FederationAccess`` and whatever the section's ``context`` adds. Federation
itself shows its member clubs; competitions and the ranking (issue 34's later slices) add
theirs from their AppConfig.ready()::

    from clabber_league.federation.sections import Section, register
    register(Section("ranking", "ranking/_federation_section.html", context=top_ten, order=20))

A section whose ``visible`` answers False for this caller is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def _always(access: Any) -> bool:
    return True


def _nothing(access: Any) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class Section:
    name: str
    template: str
    context: Callable[[Any], dict[str, Any]] = _nothing
    order: int = 50
    visible: Callable[[Any], bool] = _always


SECTIONS: list[Section] = []


def register(section: Section) -> None:
    """Add a section (a section of the same name is replaced: ready() may run twice)."""
    SECTIONS[:] = [s for s in SECTIONS if s.name != section.name]
    SECTIONS.append(section)
    SECTIONS.sort(key=lambda s: (s.order, s.name))


def sections_for(access: Any) -> list[tuple[Section, dict[str, Any]]]:
    """The sections this caller sees, each with its context."""
    return [(s, s.context(access)) for s in SECTIONS if s.visible(access)]
