"""The periodic work: publishing league nights, reminding players of their fixture,
flagging fixtures whose night passed without a result. Celery beat runs them
(``scheduling.tasks``)."""

from __future__ import annotations

import datetime as dt
import logging
from collections import defaultdict
from collections.abc import Collection

from django.core.mail import get_connection
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.locale import club_locale
from clabber_league.core.i18n import local_format
from clabber_league.core.mail import mail_send, site_url
from clabber_league.leagues.models import Division, TeamMember

from .. import selectors
from ..models import Fixture, LeagueNight

logger = logging.getLogger(__name__)


def _of_clubs(fixtures: QuerySet[Fixture], club_ids: Collection[int] | None) -> QuerySet[Fixture]:
    return fixtures if club_ids is None else fixtures.filter(club_id__in=list(club_ids))


def nights_publish(*, on: dt.date, club_ids: Collection[int] | None = None) -> int:
    """Publish every club's fixture list for the night ``on`` (once; later runs only update
    the count); only those of ``club_ids`` when given (the clubs whose "today" it is).
    Returns how many clubs play that night."""
    counts: dict[int, int] = defaultdict(int)
    for club_id in (
        _of_clubs(Fixture.objects.filter(date=on), club_ids)
        .exclude(status__in=Fixture.DONE)
        .values_list("club_id", flat=True)
    ):
        counts[club_id] += 1
    now = timezone.now()
    for club_id, how_many in counts.items():
        night, created = LeagueNight.objects.get_or_create(
            club_id=club_id, date=on, defaults={"published_at": now, "fixture_count": how_many}
        )
        if not created:
            night.fixture_count = how_many
            night.published_at = night.published_at or now
            night.save(update_fields=["fixture_count", "published_at"])
    return len(counts)


REMINDER_SUBJECT = _("{club}: {home} v {away} on {when}")
REMINDER_TEMPLATE = "scheduling/email/reminder"  # .txt and .html (core.mail)


def fixtures_remind(
    *, on: dt.date, base_url: str = "", club_ids: Collection[int] | None = None
) -> int:
    """Email the players (with an email address) of every fixture on ``on`` (of the clubs
    ``club_ids``, when given), once per fixture. Returns how many emails were sent.

    **Exactly once.** Each fixture is claimed before its emails go: one atomic
    ``UPDATE ... SET reminded_at WHERE reminded_at IS NULL``, and only the caller whose
    update changed the row sends. So two beats, a retried task or two workers running this
    at once never send a fixture's reminder twice (a worker that dies between the claim and
    the send loses that fixture's reminder rather than doubling everyone's).

    Each email is sent on its own: one that fails (a bad address, a name that breaks a
    header, the mail server refusing one recipient) is logged and the others still go, so
    one bad row never stops a night's reminders for every club. Links are absolute:
    ``base_url``, else the ``CLABBER_SITE_URL`` setting (``core.mail.site_url``)."""
    sent = 0
    fixtures = (
        _of_clubs(
            Fixture.objects.filter(
                date=on, reminded_at__isnull=True, status=Fixture.Status.SCHEDULED
            ),
            club_ids,
        )
        .select_related("club", "division", "home", "away", "venue")
        .order_by("id")
    )
    mail = get_connection(fail_silently=False)
    for fixture in fixtures:
        claimed = Fixture.objects.filter(pk=fixture.pk, reminded_at__isnull=True).update(
            reminded_at=timezone.now()
        )
        if not claimed:  # another beat or worker has it
            continue
        # Each player's own language (MemberProfile.language, "" to follow the club): read
        # through the ORM so this layer needs no import of members above it.
        languages: dict[str, str] = {}
        for email, language in (
            TeamMember.objects.filter(team_id__in=(fixture.home_id, fixture.away_id))
            .exclude(player__user__email="")
            .exclude(player__user__isnull=True)
            .values_list("player__user__email", "player__user__member_profile__language")
        ):
            languages[email] = languages.get(email) or language or ""
        path = f"/clubs/{fixture.club.slug}/schedule/teams/{fixture.home_id}/"
        url = f"{base_url.rstrip('/')}{path}" if base_url else site_url(path)
        for email in sorted(languages):
            try:
                # The player's language, else the club's (the chooser of the pages).
                with club_locale(fixture.club, language=languages[email]):
                    when = date_format(on, local_format("l j F"))
                    subject = REMINDER_SUBJECT.format(
                        club=fixture.club.name, home=fixture.home, away=fixture.away, when=when
                    )
                    subject = " ".join(subject.split())  # one line, whatever the names hold
                    context = {"fixture": fixture, "when": when, "url": url, "club": fixture.club}
                    sent += mail_send(
                        to=[email],
                        subject=subject,
                        template=REMINDER_TEMPLATE,
                        context=context,
                        connection=mail,
                    )
            except Exception:  # one failed email must not stop the others
                logger.exception("reminder for fixture %s to %s not sent", fixture.pk, email)
    return sent


def fixtures_flag_overdue(*, today: dt.date, club_ids: Collection[int] | None = None) -> int:
    """Flag fixtures whose night has passed with no result and no game (of the clubs
    ``club_ids``, when given: those whose "today" ``today`` is). A fixture whose
    result is decided (``leagues.results``) becomes played, should the game's transaction
    not have done it already (rows written before it did). Returns how many were flagged."""
    candidates = _of_clubs(
        Fixture.objects.filter(
            Q(date__lt=today) & Q(status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED])
        ),
        club_ids,
    )
    divisions = Division.objects.filter(
        pk__in=candidates.values_list("division_id", flat=True).distinct()
    ).select_related("season")
    to_flag: list[int] = []
    to_played: list[int] = []
    for division in divisions:
        games = selectors.games_by_fixture(division=division)
        points = selectors.season_points(division.season)
        for fixture in candidates.filter(division=division).only(
            "id", "home_id", "away_id", "games_planned", "status", "flagged_at"
        ):
            mine = games.get(fixture.pk, [])
            if selectors.fixture_result_of(fixture, mine, points).decided:
                to_played.append(fixture.pk)
            elif not mine and fixture.flagged_at is None:
                to_flag.append(fixture.pk)
    now = timezone.now()
    Fixture.objects.filter(pk__in=to_played).update(
        status=Fixture.Status.PLAYED, flagged_at=None, updated_at=now
    )
    Fixture.objects.filter(pk__in=to_flag).update(flagged_at=now, updated_at=now)
    return len(to_flag)
