"""Schedule pages: season setup, generating with a progress bar, the schedule by round, by
team, by venue and by night, an .ics feed per team, and moving or forfeiting a fixture.

Views translate between the request and the services (which check and write) and the
selectors (which read); the same services serve the API.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from clabber_league.clubs.access import club_access
from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.locale import club_locale
from clabber_league.core import messages as run_messages
from clabber_league.core.errors import ServiceError
from clabber_league.core.i18n import local_format
from clabber_league.games import table_links
from clabber_league.leagues import services as league_services
from clabber_league.leagues.models import Division, Season, Team, Venue
from clabber_league.leagues.selectors import venue_list

from . import calendar, feeds, selectors
from .forms import (
    DivisionForm,
    FixtureForfeitForm,
    FixtureMoveForm,
    ScheduleConfigForm,
    SeasonEditForm,
    SeasonForm,
    TeamEditForm,
    TeamForm,
    TeamWithdrawForm,
    VenueForm,
    WithdrawalPolicyForm,
)
from .models import Fixture, ScheduleConfig, ScheduleRun
from .services import fixture_changes
from .services.generation import (
    schedule_config_save,
    schedule_generate,
    schedule_run_retry,
    schedule_run_stalled,
)

#: Rounds on one page of a division's schedule: about 60 fixtures of a 25-team division, so
#: the page costs under 150 ms of CPU and weighs about 30 KB (`bench/pages.py`; 10 rounds
#: took about 170 ms). The season prints a page at a time: the whole of a 25-team double
#: round robin on one page was 280 KB, and it grows with the division.
ROUNDS_PER_PAGE = 5


def _division(request: HttpRequest, pk: int) -> Division:
    return get_object_or_404(
        Division.objects.select_related("season", "club"), club=request.club, pk=pk
    )


def _context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    return {"club": request.club, "access": request.club_access, **extra}


# --- the schedule's home: seasons, venues, published nights --------------------------------


@club_view("read")
def schedule_index(request: HttpRequest) -> HttpResponse:
    club = request.club
    seasons = (
        Season.objects.filter(club=club)
        .prefetch_related("divisions")
        .order_by("-start_date", "name")
    )
    return render(
        request,
        "scheduling/index.html",
        _context(
            request,
            seasons=seasons,
            venues=venue_list(club=club),
            nights=selectors.published_nights(club=club),
            season_form=SeasonForm(auto_id="season_%s"),
            venue_form=VenueForm(auto_id="venue_%s"),
        ),
    )


@require_POST
@club_view("manage")
def season_new(request: HttpRequest) -> HttpResponse:
    form = SeasonForm(request.POST, auto_id="season_%s")
    if form.is_valid():
        try:
            season = league_services.season_create(club=request.club, **form.cleaned_data)
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(
                request,
                gettext("Season {season} created. Add its divisions.").format(season=season.name),
            )
            return redirect("scheduling:season", club_slug=request.club.slug, slug=season.slug)
    return render(
        request,
        "scheduling/index.html",
        _context(
            request,
            seasons=Season.objects.filter(club=request.club),
            venues=venue_list(club=request.club),
            nights=[],
            season_form=form,
            venue_form=VenueForm(auto_id="venue_%s"),
        ),
        status=400,
    )


@require_POST
@club_view("manage")
def venue_new(request: HttpRequest) -> HttpResponse:
    form = VenueForm(request.POST)
    if form.is_valid():
        try:
            venue = league_services.venue_create(club=request.club, **form.cleaned_data)
        except ServiceError as exc:
            messages.error(request, " ".join(e["message"] for e in exc.errors))
        else:
            messages.success(
                request,
                ngettext(
                    "Venue {venue} ({count} table) added.",
                    "Venue {venue} ({count} tables) added.",
                    venue.tables,
                ).format(venue=venue.name, count=venue.tables),
            )
    else:
        messages.error(request, gettext("Give the venue a name and 1 to 500 tables."))
    return redirect("scheduling:index", club_slug=request.club.slug)


# --- a season: points and divisions ------------------------------------------------------


@club_view("read", write="manage")
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, club=request.club, slug=slug)
    edit_form = SeasonEditForm(
        initial={
            "start_date": season.start_date,
            "end_date": season.end_date,
            "points_win": season.points_win,
            "points_tie": season.points_tie,
            "points_loss": season.points_loss,
        }
    )
    division_form = DivisionForm(initial={"ruleset": request.club.ruleset})  # the club's own
    if request.method == "POST":  # club admins only (club_view's write need)
        if "points_win" in request.POST:
            edit_form = SeasonEditForm(request.POST)
            if edit_form.is_valid():
                try:
                    league_services.season_update(season=season, **edit_form.cleaned_data)
                except ServiceError as exc:
                    edit_form.add_service_errors(exc.errors)
                else:
                    messages.success(request, gettext("Season saved."))
                    return redirect(request.path)
        else:
            division_form = DivisionForm(request.POST)
            if division_form.is_valid():
                try:
                    division = league_services.division_create(
                        season=season, **division_form.cleaned_data
                    )
                except ServiceError as exc:
                    division_form.add_service_errors(exc.errors)
                else:
                    messages.success(
                        request,
                        gettext("Division {division} added. Register its teams.").format(
                            division=division.name
                        ),
                    )
                    return redirect("scheduling:setup", club_slug=request.club.slug, pk=division.pk)
    return render(
        request,
        "scheduling/season.html",
        _context(
            request,
            season=season,
            divisions=season.divisions.order_by("name").prefetch_related("teams"),
            edit_form=edit_form,
            division_form=division_form,
        ),
    )


# --- a division: teams, schedule config, generate ---------------------------------------------


def _config_initial(division: Division, config: ScheduleConfig | None) -> dict[str, Any]:
    if config is None:
        return {
            "format": ScheduleConfig.Format.ROUND_ROBIN,
            "cycles": 1,
            "swiss_rounds": 5,
            "games_per_fixture": division.games_per_fixture,
            "weekday": division.season.start_date.weekday(),
            "start_date": division.season.start_date,
        }
    return {
        "format": config.format,
        "cycles": config.cycles,
        "swiss_rounds": config.swiss_rounds,
        "games_per_fixture": division.games_per_fixture,
        "weekday": config.weekday,
        "start_date": config.start_date,
        "start_time": config.start_time,
        "venues": [sv.venue_id for sv in config.schedule_venues.all()],
        "skip_dates": "\n".join(
            f"{s.date.isoformat()} {s.reason}".strip() for s in config.skip_dates.all()
        ),
    }


@club_view("manage")
def division_setup(request: HttpRequest, pk: int) -> HttpResponse:
    division = _division(request, pk)
    config = selectors.config_get(division=division)
    form = ScheduleConfigForm(
        request.POST or None, club=request.club, initial=_config_initial(division, config)
    )
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        # Venues already in use keep their order; new ones follow, the biggest first.
        picked = {v.pk for v in c["venues"]}
        order = [sv.venue for sv in config.schedule_venues.all()] if config else []
        venues = [v for v in order if v.pk in picked]
        venues += sorted(
            (v for v in c["venues"] if v not in venues), key=lambda v: (-v.tables, v.name)
        )
        try:
            schedule_config_save(
                division=division,
                format=c["format"],
                cycles=c["cycles"],
                swiss_rounds=c["swiss_rounds"],
                weekday=c["weekday"],
                start_date=c["start_date"],
                start_time=c["start_time"],
                venues=venues,
                skip_dates=c["skip_dates"],
                games_per_fixture=c["games_per_fixture"],
            )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(request, gettext("Schedule settings saved."))
            return redirect("scheduling:setup", club_slug=request.club.slug, pk=division.pk)
    run = selectors.latest_run(division=division)
    return render(
        request,
        "scheduling/setup.html",
        _context(
            request,
            division=division,
            config=config,
            form=form,
            team_form=TeamForm(),
            policy_form=WithdrawalPolicyForm(
                initial={"withdrawal_policy": division.withdrawal_policy}
            ),
            teams=division.teams.prefetch_related("members__player").order_by("name"),
            run=run,
            run_message=run_messages.run_message(run) if run else "",
            has_fixtures=division.fixtures.exists(),
        ),
    )


@require_POST
@club_view("manage")
def team_new(request: HttpRequest, pk: int) -> HttpResponse:
    division = _division(request, pk)
    form = TeamForm(request.POST)
    if form.is_valid():
        try:
            team = league_services.team_register(
                division=division,
                name=form.cleaned_data["name"],
                player_names=form.cleaned_data["players"],
            )
        except ServiceError as exc:
            messages.error(request, " ".join(e["message"] for e in exc.errors))
        else:
            messages.success(request, gettext("{team} registered.").format(team=team.name))
    else:
        messages.error(request, gettext("Give the team a name and its players."))
    return redirect("scheduling:setup", club_slug=request.club.slug, pk=division.pk)


@require_POST
@club_view("manage")
def generate(request: HttpRequest, pk: int) -> HttpResponse:
    division = _division(request, pk)
    try:
        with transaction.atomic():
            run = schedule_generate(division=division, user=request.user)
    except ServiceError as exc:
        messages.error(request, " ".join(e["message"] for e in exc.errors))
        return redirect("scheduling:setup", club_slug=request.club.slug, pk=division.pk)
    return redirect("scheduling:run", club_slug=request.club.slug, pk=run.pk)


# --- a run and its progress bar ---------------------------------------------------------------


def _run(request: HttpRequest, pk: int) -> ScheduleRun:
    return get_object_or_404(
        ScheduleRun.objects.select_related("division__season"), club=request.club, pk=pk
    )


def _run_context(request: HttpRequest, run: ScheduleRun) -> dict[str, Any]:
    return _context(
        request,
        run=run,
        run_message=run_messages.run_message(run),
        run_notes=run_messages.notes_shown(run.notes or []),
        division=run.division,
        stalled=schedule_run_stalled(run=run),
    )


@club_view("manage")
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    return render(request, "scheduling/run.html", _run_context(request, run))


@club_view("manage")
def run_status(request: HttpRequest, pk: int) -> HttpResponse:
    """htmx: the progress bar; it polls itself until the run is done or failed."""
    run = _run(request, pk)
    return render(request, "scheduling/_run_status.html", _run_context(request, run))


@require_POST
@club_view("manage")
def run_retry(request: HttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    try:
        with transaction.atomic():
            new = schedule_run_retry(run=run, user=request.user)
    except ServiceError as exc:
        messages.error(request, " ".join(e["message"] for e in exc.errors))
        return redirect("scheduling:run", club_slug=request.club.slug, pk=run.pk)
    return redirect("scheduling:run", club_slug=request.club.slug, pk=new.pk)


# --- the schedule: by round, by team, by venue, by night --------------------------------------


def _with_outcomes(division: Division, fixtures: list[Fixture]) -> list[Fixture]:
    outcomes = selectors.fixture_outcomes(division=division, fixtures=fixtures)
    for f in fixtures:
        f.outcome = outcomes[f.pk]  # type: ignore[attr-defined]
    return fixtures


@club_view("read")
def division_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    division = _division(request, pk)
    numbers = selectors.round_numbers(division=division)
    page = Paginator(numbers, ROUNDS_PER_PAGE).get_page(request.GET.get("page"))
    fixtures = _with_outcomes(
        division, list(selectors.division_fixtures(division=division, rounds=page.object_list))
    )
    byes = selectors.byes_by_round(division=division, fixtures=fixtures)
    rounds = []
    for number in page.object_list:
        mine = [f for f in fixtures if f.round_number == number]
        dates = sorted({f.date for f in mine if f.date})
        rounds.append(
            {
                "number": number,
                "date": dates[0] if dates else None,
                "fixtures": mine,
                "byes": byes.get(number, []),
            }
        )
    run = selectors.latest_done_run(division=division)
    return render(
        request,
        "scheduling/division.html",
        _context(
            request,
            division=division,
            config=selectors.config_get(division=division),
            rounds=rounds,
            page=page,
            blocks=_round_blocks(page.paginator),
            notes=run_messages.notes_shown(run.notes or []) if run else [],
            no_play_dates=selectors.no_play_dates(division=division),
            last_run=selectors.latest_run(division=division),
        ),
    )


def _round_blocks(paginator: Paginator) -> list[dict[str, int]]:
    """Every page of the schedule by its rounds (``Rounds 6-10``), for the pager: the season
    is printed a page at a time, so each is a link of its own."""
    pages = (paginator.page(n) for n in paginator.page_range)
    return [
        {"page": p.number, "first": p.object_list[0], "last": p.object_list[-1]}
        for p in pages
        if p.object_list
    ]


def _feed_url(request: HttpRequest, team: Team, key: str = "") -> str:
    feed = reverse("scheduling:team-ics", args=[request.club.slug, team.pk])
    return request.build_absolute_uri(f"{feed}?key={key}" if key else feed)


@club_view("read")
def team_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(
        Team.objects.select_related("division__season"), club=request.club, pk=pk
    )
    fixtures = _with_outcomes(team.division, list(selectors.team_fixtures(team=team)))
    # A public club's feed needs no key; a private club's members have their own.
    own_key = feeds.feed_key_of(access=request.club_access, team=team)
    feed_url = ""
    if request.club.is_public:
        feed_url = _feed_url(request, team)
    elif own_key is not None:
        feed_url = _feed_url(request, team, own_key.key)
    return render(
        request,
        "scheduling/team.html",
        _context(
            request,
            team=team,
            fixtures=fixtures,
            feed_url=feed_url,
            own_key=own_key,
            no_play_dates=selectors.no_play_dates(division=team.division),
        ),
    )


@require_POST
@club_view("member")
def team_feed_key(request: HttpRequest, pk: int) -> HttpResponse:
    """The member's own calendar link to this team: made, or renewed (``renew=1``)."""
    team = get_object_or_404(Team, club=request.club, pk=pk)
    renew = request.POST.get("renew") == "1"
    feeds.feed_key_issue(access=request.club_access, team=team, renew=renew)
    if renew:
        messages.success(
            request, gettext("Your calendar link is new: the old one no longer works.")
        )
    else:
        messages.success(
            request, gettext("Your calendar link is below: subscribe to it in your phone.")
        )
    return redirect("scheduling:team", club_slug=request.club.slug, pk=team.pk)


@require_POST
@club_view("manage")
def team_feed_keys_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """A club admin revokes every member's calendar link to this team."""
    team = get_object_or_404(Team, club=request.club, pk=pk)
    revoked = feeds.feed_keys_revoke(access=request.club_access, team=team)
    messages.success(
        request,
        ngettext(
            "{count} calendar link of {team} revoked; members get a new one here.",
            "{count} calendar links of {team} revoked; members get a new one here.",
            revoked,
        ).format(count=revoked, team=team.name),
    )
    return redirect("scheduling:team", club_slug=request.club.slug, pk=team.pk)


def team_ics(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    """The team's .ics feed, to whoever may read the club or with a member's key
    (``clubs.access`` decides; a wrong, renewed or revoked key is a 404)."""
    holder = feeds.feed_key_holder(club_slug=club_slug, team_pk=pk, key=request.GET.get("key", ""))
    access = club_access(slug=club_slug, user=request.user, key_holder=holder)
    team = get_object_or_404(
        Team.objects.select_related("division", "club"), club=access.club, pk=pk
    )
    config = ScheduleConfig.objects.filter(division=team.division).first()
    # A phone's calendar asks with no cookie and no language: the key holder's own
    # language (their profile), else the club's.
    profile = getattr(holder.user, "member_profile", None) if holder and holder.user else None
    with club_locale(access.club, language=getattr(profile, "language", "") or None):
        body = calendar.team_calendar(
            team=team,
            fixtures=selectors.team_fixtures(team=team).select_related("club"),
            start_time=config.start_time if config else None,
            url=request.build_absolute_uri(
                reverse("scheduling:team", args=[access.club.slug, team.pk])
            ),
        )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="team-{team.pk}.ics"'
    return response


@club_view("read")
def venue_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    venue = get_object_or_404(Venue, club=request.club, pk=pk)
    show_all = request.GET.get("all") == "1"
    since = None if show_all else timezone.localdate()
    fixtures = list(selectors.venue_fixtures(venue=venue, since=since)[:2000])
    nights: dict[dt.date | None, list[Fixture]] = {}
    for f in fixtures:
        nights.setdefault(f.date, []).append(f)
    return render(
        request,
        "scheduling/venue.html",
        _context(request, venue=venue, nights=nights, show_all=show_all),
    )


@club_view("read")
def night(request: HttpRequest, day: str) -> HttpResponse:
    try:
        date = dt.date.fromisoformat(day)
    except ValueError as exc:
        raise Http404("No such night.") from exc
    fixtures = list(selectors.night_fixtures(club=request.club, date=date))
    return render(
        request,
        "scheduling/night.html",
        _context(
            request,
            date=date,
            fixtures=fixtures,
            published=request.club.league_nights.filter(date=date).first(),
            **_table_links(request, fixtures),
        ),
    )


# --- moving and forfeiting a fixture ---------------------------------------------------------


def _fixture(request: HttpRequest, pk: int) -> Fixture:
    return get_object_or_404(
        selectors.fixture_list(club=request.club).select_related("division__season"), pk=pk
    )


def _back(request: HttpRequest, fixture: Fixture) -> HttpResponse:
    """Back to the fixture's round, on the page of the division's schedule that holds it."""
    url = reverse("scheduling:division", args=[request.club.slug, fixture.division_id])
    numbers = selectors.round_numbers(division=fixture.division)
    at = numbers.index(fixture.round_number) if fixture.round_number in numbers else 0
    page = at // ROUNDS_PER_PAGE + 1
    query = f"?page={page}" if page > 1 else ""
    return redirect(f"{url}{query}#round-{fixture.round_number}")


@club_view("manage")
def fixture_move(request: HttpRequest, pk: int) -> HttpResponse:
    fixture = _fixture(request, pk)
    form = FixtureMoveForm(
        request.POST or None,
        club=request.club,
        home_venue=fixture_changes.home_venue(fixture.division, fixture.home),
        initial={
            "date": fixture.date,
            "venue": fixture.venue_id,
            "table": fixture.table,
            "note": fixture.note,
        },
    )
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        try:
            fixture_changes.fixture_move(
                fixture=fixture,
                date=c["date"],
                venue=c["venue"],
                table=c["table"],
                note=c["note"],
                on_no_play_night=c["on_no_play_night"],
                user=request.user,
            )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            if c["date"]:
                message = gettext("{home} v {away} moved to {date}.").format(
                    home=fixture.home, away=fixture.away, date=c["date"].isoformat()
                )
            else:
                message = gettext("{home} v {away} moved to a date to be arranged.").format(
                    home=fixture.home, away=fixture.away
                )
            messages.success(request, message)
            return _back(request, fixture)
    return render(
        request, "scheduling/fixture_move.html", _context(request, fixture=fixture, form=form)
    )


@club_view("manage")
def fixture_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    fixture = _fixture(request, pk)
    form = FixtureForfeitForm(request.POST or None, fixture=fixture)
    if request.method == "POST" and form.is_valid():
        try:
            fixture_changes.fixture_forfeit(
                fixture=fixture,
                winner=form.cleaned_data["winner"],
                note=form.note_text(),
                user=request.user,
            )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(
                request,
                gettext("{what} recorded: {winner} take {points} points.").format(
                    what=form.note_text(),
                    winner=form.cleaned_data["winner"],
                    points=fixture.division.season.points_win,
                ),
            )
            return _back(request, fixture)
    return render(
        request,
        "scheduling/fixture_forfeit.html",
        _context(request, fixture=fixture, form=form),
    )


# --- a team through the season: its name and players, withdrawing --------------------------


def _team(request: HttpRequest, pk: int) -> Team:
    return get_object_or_404(
        Team.objects.select_related("division__season"), club=request.club, pk=pk
    )


def _team_edit_page(
    request: HttpRequest, team: Team, form: Any, withdraw_form: Any, status: int = 200
) -> HttpResponse:
    today = timezone.localdate()
    later = [] if team.withdrawn_on else list(selectors.withdrawn_fixtures(team=team, on=today))
    return render(
        request,
        "scheduling/team_edit.html",
        _context(
            request,
            team=team,
            division=team.division,
            form=form,
            withdraw_form=withdraw_form,
            later=later,
            today=today,
        ),
        status=status,
    )


@club_view("manage")
def team_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename a team and change its players (``leagues.services.team_update``, as the API's
    ``PATCH teams/{id}/``); withdraw it below."""
    team = _team(request, pk)
    players = [m.player.name for m in team.members.select_related("player").order_by("position")]
    form = TeamEditForm(
        request.POST or None,
        initial={
            "name": team.name,
            "players": "\n".join(players),
            "carried_points": team.carried_points,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            league_services.team_update(
                team=team,
                name=form.cleaned_data["name"],
                player_names=form.cleaned_data["players"],
                carried_points=form.cleaned_data["carried_points"],
            )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(request, gettext("{team} saved.").format(team=team.name))
            return redirect("scheduling:team-edit", club_slug=request.club.slug, pk=team.pk)
    withdraw_form = TeamWithdrawForm(initial={"on": timezone.localdate()})
    return _team_edit_page(request, team, form, withdraw_form, 400 if form.errors else 200)


@require_POST
@club_view("manage")
def team_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """The team withdraws (``leagues.services.team_withdraw``, as the API's
    ``POST teams/{id}/withdraw/``): its later fixtures become walkovers or are removed, as
    the division chooses."""
    team = _team(request, pk)
    withdraw_form = TeamWithdrawForm(request.POST)
    if withdraw_form.is_valid():
        on = withdraw_form.cleaned_data["on"]
        count = selectors.withdrawn_fixtures(team=team, on=on).count()
        try:
            league_services.team_withdraw(team=team, on=on, user=request.user)
        except ServiceError as exc:
            withdraw_form.add_service_errors(exc.errors)
        else:
            removed = team.division.withdrawal_policy == Division.Withdrawal.REMOVE
            on_text = date_format(on, local_format("j M Y"))
            if removed:
                message = ngettext(
                    "{team} withdrew on {date}: {count} fixture removed.",
                    "{team} withdrew on {date}: {count} fixtures removed.",
                    count,
                )
            else:
                message = ngettext(
                    "{team} withdrew on {date}: {count} fixture turned into a walkover.",
                    "{team} withdrew on {date}: {count} fixtures turned into walkovers.",
                    count,
                )
            messages.success(request, message.format(team=team.name, date=on_text, count=count))
            return redirect("scheduling:team", club_slug=request.club.slug, pk=team.pk)
    players = [m.player.name for m in team.members.select_related("player").order_by("position")]
    form = TeamEditForm(initial={"name": team.name, "players": "\n".join(players)})
    return _team_edit_page(request, team, form, withdraw_form, status=400)


@require_POST
@club_view("manage")
def withdrawal_policy(request: HttpRequest, pk: int) -> HttpResponse:
    """What becomes of a withdrawing team's later fixtures in this division
    (``leagues.services.division_update``, as the API's ``PATCH divisions/{id}/``)."""
    division = _division(request, pk)
    form = WithdrawalPolicyForm(request.POST)
    if form.is_valid():
        try:
            league_services.division_update(
                division=division, withdrawal_policy=form.cleaned_data["withdrawal_policy"]
            )
        except ServiceError as exc:
            messages.error(request, " ".join(e["message"] for e in exc.errors))
        else:
            messages.success(
                request,
                gettext("Withdrawals: {policy}.").format(
                    policy=division.get_withdrawal_policy_display()
                ),
            )
    else:
        messages.error(request, gettext("Choose walkovers or removal."))
    return redirect("scheduling:setup", club_slug=request.club.slug, pk=division.pk)


@club_view("read")
def night_sheet(request: HttpRequest, day: str) -> HttpResponse:
    """A league night's sheet to pin on the wall, on one printed page: per division the
    start time, every fixture by venue and table, and the byes."""
    try:
        date = dt.date.fromisoformat(day)
    except ValueError as exc:
        raise Http404("No such night.") from exc
    divisions = selectors.night_sheet(club=request.club, date=date)
    return render(
        request,
        "scheduling/night_sheet.html",
        _context(
            request,
            date=date,
            divisions=divisions,
            **_table_links(request, [f for night in divisions for f in night.fixtures]),
        ),
    )


def _table_links(request: HttpRequest, fixtures: list[Fixture]) -> dict[str, Any]:
    """For scorers and club admins: the games being played for ``fixtures`` and their table
    links (``games.table_links``: the QR codes the phones at the tables scan)."""
    if not request.club_access.can("score"):
        return {}
    fixture_games, links = table_links.fixtures_table_links(fixtures=fixtures, user=request.user)
    waiting = table_links.fixture_links_ensure(
        fixtures=[f for f in fixtures if f.pk not in fixture_games], user=request.user
    )
    return {
        "fixture_games": fixture_games,
        "table_links": links,
        "fixture_links": waiting,
        "show_table_links": True,
    }
