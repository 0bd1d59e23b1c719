"""A team's fixtures as an iCalendar feed (RFC 5545), for phones and calendar apps.

Built with the ``icalendar`` package, which folds long lines, escapes text and writes
CRLF line ends. A fixture on a night with a start time is a timed event in the club's
time zone (with its VTIMEZONE; the site's TIME_ZONE for a club that sets none); without
one it is an all-day event. A postponed fixture with no date yet is left out until it has
one. Calendar apps cannot log in, so a private club's feed URL carries a member's key
(``feeds``, ``models.FeedKey``) that only opens that team's feed, and can be renewed and
revoked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.utils import timezone
from django.utils.translation import gettext, ngettext
from icalendar import Calendar, Event

from clabber_league.leagues.models import Team

from .models import Fixture

EVENT_LENGTH = dt.timedelta(hours=3)


def team_calendar(
    *,
    team: Team,
    fixtures: Iterable[Fixture],
    start_time: dt.time | None,
    url: str = "",
) -> bytes:
    tz = team.club.zone  # the club's own zone (the site's TIME_ZONE when it sets none)
    cal = Calendar()
    cal.add("prodid", "-//Clabber League//Schedules//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", f"{team.name} · {team.division.name}")
    cal.add("x-wr-timezone", tz.key)
    stamp = timezone.now().astimezone(dt.UTC).replace(microsecond=0)
    for fixture in fixtures:
        if fixture.date is None:
            continue
        event = Event()
        event.add("uid", f"fixture-{fixture.pk}@{fixture.club.slug}.clabber-league")
        event.add("dtstamp", stamp)
        if start_time is not None:
            start = dt.datetime.combine(fixture.date, start_time, tzinfo=tz)
            event.add("dtstart", start)
            event.add("dtend", start + EVENT_LENGTH)
        else:
            event.add("dtstart", fixture.date)
            event.add("dtend", fixture.date + dt.timedelta(days=1))
        where = ""
        if fixture.venue is not None:
            where = gettext("{venue}, table {table}").format(
                venue=fixture.venue.name, table=fixture.table
            )
            event.add("location", where)
        home = fixture.home_id == team.pk
        summary = gettext("{home} v {away}").format(home=fixture.home.name, away=fixture.away.name)
        if fixture.status == Fixture.Status.FORFEIT and fixture.forfeit_winner:
            summary = gettext("{home} v {away} (forfeit: {winner} win)").format(
                home=fixture.home.name,
                away=fixture.away.name,
                winner=fixture.forfeit_winner.name,
            )
        event.add("summary", summary)
        round_line = (
            gettext("{division}, round {round} (home).")
            if home
            else gettext("{division}, round {round} (away).")
        )
        lines = [
            round_line.format(division=fixture.division.name, round=fixture.round_number),
            ngettext(
                "{team} deals first. {count} game.",
                "{team} deals first. {count} games.",
                fixture.games_planned,
            ).format(team=fixture.home.name, count=fixture.games_planned),
        ]
        if fixture.note:
            lines.append(fixture.note)
        event.add("description", "\n".join(lines))
        if fixture.status == Fixture.Status.POSTPONED:
            event.add("status", "TENTATIVE")
        else:
            event.add("status", "CONFIRMED")
        if url:
            event.add("url", url)
        cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()
