"""Reports' writes: writing a report from the numbers, editing, approving, publishing.

**Writing.** ``facts`` reads the numbers; the text is the template
``reports/text/report.txt`` rendered in the club's language (``clubs.locale.club_locale``),
so every sentence is one of the template's, filled with the numbers: nothing is invented.
A club night's report, a league night's and a cup round's are written by a task queued
when the write that closed the night's last round or recorded the last result commits
(``events.hooks.night_finished``, ``games.hooks.game_changed``,
``scheduling.hooks.fixture_changed``: ``tasks``); a league night's also when the secretary
asks for it on the reports page (``report_for_league_night``).

**Publishing.** A club whose ``ReportSettings.needs_approval`` is off publishes a report as
soon as it is written; with it on, the report waits as a draft until a club admin approves
it (``report_approve``): no other path sets ``published``. The secretary may edit the
title and text at any time (``report_update``) and go back to the generated text
(``report_reset``). Writing again (``report_write`` on a night already reported) replaces
the generated text and, while the report was not edited, the text itself.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs import names as text_names
from clabber_league.clubs.locale import club_locale
from clabber_league.clubs.models import Club
from clabber_league.core.errors import CONFLICT, ServiceError
from clabber_league.cups.models import Cup, Tie, TieGame
from clabber_league.events.models import Event
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture

from . import facts as facts_
from .hooks import report_published
from .models import Report, ReportSettings

logger = logging.getLogger(__name__)

TITLE_EMPTY = _("Give the report a title.")
TITLE_LONG = _("At most 200 characters.")
BODY_EMPTY = _("The report needs some text.")
BODY_LONG = _("At most 20000 characters.")
ALREADY_PUBLISHED = _("This report is already published.")
NO_LEAGUE_NIGHT = _("The club has no fixtures on {date}.")
LEAGUE_NIGHT_OPEN = _("Not every fixture of {date} has its result yet.")

NIGHT_TITLE = _("{name}, {date}")
LEAGUE_TITLE = _("League night of {date}")
CUP_TITLE = _("{cup}, round {round}")
CUP_BRACKET_TITLE = _("{cup}, round {round} ({bracket} bracket)")
ROUND_TABLE = _("round {round}, table {table}")


class ReportError(ServiceError):
    pass


def needs_approval(club: Club) -> bool:
    return ReportSettings.objects.filter(club=club, needs_approval=True).exists()


def report_settings_save(*, club: Club, needs_approval: bool) -> ReportSettings:
    row, _created = ReportSettings.objects.update_or_create(
        club=club, defaults={"needs_approval": needs_approval}
    )
    return row


def _render(club: Club, make_facts: Any, make_title: Any) -> tuple[str, str, str]:
    """(title, text, language), written in the club's language."""
    with club_locale(club):
        found = make_facts()
        title = str(make_title(found))
        text = render_to_string("reports/text/report.txt", {"f": found}).strip() + "\n"
        return title[:200], text, translation.get_language() or ""


@transaction.atomic
def report_write(
    *, club: Club, key: str, kind: str, make_facts: Any, make_title: Any, **links: Any
) -> Report:
    """Write (or write again) the report named ``key``; published at once unless the club
    asks for approval (or it already waits for it)."""
    title, text, language = _render(club, make_facts, make_title)
    report = Report.objects.select_for_update().filter(club=club, key=key).first()
    if report is None:
        report = Report(club=club, key=key, kind=kind, title=title, body=text, **links)
        report.status = Report.Status.DRAFT if needs_approval(club) else Report.Status.PUBLISHED
        if report.status == Report.Status.PUBLISHED:
            report.published_at = timezone.now()
    elif not report.edited:
        report.title, report.body = title, text
    report.generated_title, report.generated, report.language = title, text, language
    announce = report.pk is None and report.status == Report.Status.PUBLISHED
    report.save()
    if announce:
        _announce(report)
    return report


def _announce(report: Report) -> None:
    report_published.send(report=report)


def report_for_night(*, event: Event) -> Report:
    def title(_facts: Any) -> str:
        return NIGHT_TITLE.format(name=event.name, date=date_format(event.date, "DATE_FORMAT"))

    return report_write(
        club=event.club,
        key=f"night:{event.pk}",
        kind=Report.Kind.NIGHT,
        make_facts=lambda: facts_.night_facts(event, round_label=str(ROUND_TABLE)),
        make_title=title,
        event=event,
        date=event.date,
    )


def reports_night_finished(*, event: Event, **_kwargs: Any) -> None:
    """events.hooks.night_finished: the night's report is written by a task once its last
    round's close commits (a report that cannot be written never holds the night open)."""
    _later("night", event.pk)


def night_check(*, event_id: int) -> Report | None:
    event = Event.objects.filter(pk=event_id, status=Event.Status.FINISHED).first()
    return report_for_night(event=event) if event is not None else None


def _later(task_name: str, *args: Any) -> None:
    """Queue a check once the write commits: the deal that decided it pays no query here."""

    def queue() -> None:
        from . import tasks

        try:
            getattr(tasks, task_name).apply_async(args=list(args), retry=False, ignore_result=True)
        except Exception:  # the broker is down: the secretary can still ask for it
            logger.exception("could not queue the report check %s%s", task_name, args)

    transaction.on_commit(queue)


def league_night_check(*, club_id: int, date: dt.date) -> Report | None:
    """Write the league night's report once every fixture of its date has its result."""
    same_night = Fixture.objects.filter(club_id=club_id, date=date)
    if not same_night.exists() or same_night.exclude(status__in=Fixture.DONE).exists():
        return None
    return report_for_league_night(club=Club.objects.get(pk=club_id), date=date)


def cup_game_check(*, game_id: int) -> Report | None:
    """A cup tie's game changed status: its round's report once its last tie is decided."""
    tie_id = TieGame.objects.filter(game_id=game_id).values_list("tie_id", flat=True).first()
    if tie_id is None:
        return None
    return _cup_round_done(Tie.objects.select_related("cup").get(pk=tie_id))


def _fixture_done(fixture: Fixture | None) -> None:
    if fixture is not None and fixture.date is not None and fixture.status in Fixture.DONE:
        _later("league_night", fixture.club_id, fixture.date.isoformat())


def reports_game_changed(
    *,
    game: Game,
    status_before: str | None = None,
    fixture: Fixture | None = None,
    **_kwargs: Any,
) -> None:
    """games.hooks.game_changed: ``fixture`` is passed only when this write changed its
    result (a league night may be complete); a division-less game whose status changed may
    be a cup tie's that decided its tie (checked by a task once this commits, after the
    cups' handler has moved the bracket on)."""
    _fixture_done(fixture)
    if game.division_id is None and status_before != game.status:
        _later("cup_game", game.pk)


def reports_tie_walked_over(*, tie: Tie, **_kwargs: Any) -> None:
    """cups.hooks.tie_walked_over: a walkover may be its round's last tie."""
    _later("cup_tie", tie.pk)


def cup_tie_check(*, tie_id: int) -> Report | None:
    """A cup tie was decided without a game: its round's report once its last tie is."""
    tie = Tie.objects.select_related("cup").filter(pk=tie_id).first()
    return _cup_round_done(tie) if tie is not None else None


def reports_fixture_changed(*, fixture: Fixture, **_kwargs: Any) -> None:
    """scheduling.hooks.fixture_changed: a forfeit or walkover may be the night's last."""
    _fixture_done(fixture)


def _cup_round_done(tie: Tie) -> Report | None:
    if tie.status not in Tie.DONE:
        return None
    same_round = Tie.objects.filter(cup=tie.cup, bracket=tie.bracket, round=tie.round)
    if same_round.exclude(status__in=Tie.DONE).exists():
        return None
    if not same_round.filter(status=Tie.Status.DECIDED).exists():
        return None  # only byes and walkovers: nothing was played
    return report_for_cup_round(cup=tie.cup, bracket=tie.bracket, round_=tie.round)


def report_for_cup_round(*, cup: Cup, bracket: str, round_: int) -> Report:
    def title(_facts: Any) -> str:
        if bracket == "main":
            return CUP_TITLE.format(cup=cup.name, round=round_)
        return CUP_BRACKET_TITLE.format(cup=cup.name, round=round_, bracket=bracket)

    return report_write(
        club=cup.club,
        key=f"cup:{cup.pk}:{bracket}:{round_}",
        kind=Report.Kind.CUP,
        make_facts=lambda: facts_.cup_facts(
            cup=cup, bracket=bracket, round_=round_, name=title(None)
        ),
        make_title=title,
        date=timezone.localdate(),
    )


def report_for_league_night(*, club: Club, date: dt.date) -> Report:
    """The report of the club's league night on ``date``, once every fixture of it has a
    result (played, or decided by forfeit)."""
    fixtures = Fixture.objects.filter(club=club, date=date)
    shown = date_format(date, "DATE_FORMAT")
    if not fixtures.exists():
        raise ReportError.one("date", str(NO_LEAGUE_NIGHT.format(date=shown)))
    if fixtures.exclude(status__in=Fixture.DONE).exists():
        raise ReportError.one("date", str(LEAGUE_NIGHT_OPEN.format(date=shown)), kind=CONFLICT)

    def title(_facts: Any) -> str:
        return LEAGUE_TITLE.format(date=date_format(date, "DATE_FORMAT"))

    return report_write(
        club=club,
        key=f"league:{date.isoformat()}",
        kind=Report.Kind.LEAGUE,
        make_facts=lambda: facts_.league_facts(club_id=club.pk, date=date, name=title(None)),
        make_title=title,
        date=date,
    )


@transaction.atomic
def report_update(*, report: Report, title: str, body: str, user: Any) -> Report:
    """The secretary's edit of the title and text (a published report stays published)."""
    errors = []
    title, body = (title or "").strip(), (body or "").strip()
    if not title:
        errors.append({"field": "title", "message": str(TITLE_EMPTY)})
    elif len(title) > 200:
        errors.append({"field": "title", "message": str(TITLE_LONG)})
    if not body:
        errors.append({"field": "body", "message": str(BODY_EMPTY)})
    elif len(body) > 20000:
        errors.append({"field": "body", "message": str(BODY_LONG)})
    if errors:
        raise ReportError(errors)
    report = Report.objects.select_for_update().get(pk=report.pk)
    report.title, report.body = title, body.replace("\r\n", "\n") + "\n"
    report.edited_at, report.edited_by = timezone.now(), user
    report.save(update_fields=["title", "body", "edited_at", "edited_by"])
    return report


@transaction.atomic
def report_reset(*, report: Report, user: Any) -> Report:
    """Back to the text written from the numbers."""
    report = Report.objects.select_for_update().get(pk=report.pk)
    report.title, report.body = report.generated_title, report.generated
    report.edited_at, report.edited_by = timezone.now(), user
    report.save(update_fields=["title", "body", "edited_at", "edited_by"])
    return report


@transaction.atomic
def report_approve(*, report: Report, user: Any) -> Report:
    """A club admin approves the report: it is published."""
    report = Report.objects.select_for_update().get(pk=report.pk)
    if report.published:
        raise ReportError.one("", str(ALREADY_PUBLISHED), kind=CONFLICT)
    report.status, report.published_at, report.approved_by = (
        Report.Status.PUBLISHED,
        timezone.now(),
        user,
    )
    report.save(update_fields=["status", "published_at", "approved_by"])
    _announce(report)
    return report


@transaction.atomic
def report_unpublish(*, report: Report) -> Report:
    """Taken off the club's page (a draft again, to approve once more)."""
    report = Report.objects.select_for_update().get(pk=report.pk)
    report.status, report.published_at = Report.Status.DRAFT, None
    report.save(update_fields=["status", "published_at"])
    return report


def reports_player_anonymised(*, player: Any, names: tuple[str, ...], name: str, **_: Any) -> None:
    """``clubs.hooks.player_anonymised``: a person erased. The club's reports (the text
    written and the text the service generated, drafts and published alike) name them no
    more."""
    fields = ["title", "body", "generated_title", "generated"]
    text_names.names_replaced(
        Report.objects.filter(club_id=player.club_id), fields, names, name, look_in=fields
    )
