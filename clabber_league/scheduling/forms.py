"""Forms of the schedule pages: they collect and parse; the services check and write."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from clabber_league.leagues.models import Division, Team, Venue
from clabber_league.rules import BUILTIN_RULESETS

from .models import WEEKDAYS, ScheduleConfig

SKIP_DATE_FORMAT = _("Write one date a line as YYYY-MM-DD, optionally followed by a reason.")
PLAYERS_HELP = _("One name a line (or separated by commas), in seating order; new names are added.")


def _apply_errors(form: forms.Form, errors: list[dict[str, str]]) -> None:
    """Show a service's errors beside their fields (or above the form)."""
    for error in errors:
        name = error["field"] if error["field"] in form.fields else None
        form.add_error(name, error["message"])


class ServiceForm(forms.Form):
    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        _apply_errors(self, errors)


class VenueForm(ServiceForm):
    name = forms.CharField(max_length=120, label=_("Name"))
    tables = forms.IntegerField(min_value=1, max_value=500, initial=6, label=_("Tables"))


class SeasonForm(ServiceForm):
    name = forms.CharField(max_length=120, label=_("Name"))
    start_date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}), label=_("Start date")
    )
    end_date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=_("End date")
    )
    points_win = forms.IntegerField(
        min_value=0, max_value=99, initial=2, label=_("Points for a win")
    )
    points_tie = forms.IntegerField(
        min_value=0, max_value=99, initial=1, label=_("Points for a tie")
    )
    points_loss = forms.IntegerField(
        min_value=0, max_value=99, initial=0, label=_("Points for a loss")
    )


class SeasonEditForm(SeasonForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["name"]


class DivisionForm(ServiceForm):
    name = forms.CharField(max_length=120, label=_("Name"))
    ruleset = forms.ChoiceField(choices=[], label=_("Rule set"))
    games_per_fixture = forms.IntegerField(
        min_value=1, max_value=9, initial=1, label=_("Games per fixture")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(slug, rs.title) for slug, rs in BUILTIN_RULESETS.items()]


class TeamForm(ServiceForm):
    name = forms.CharField(max_length=120, label=_("Team name"))
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), label=_("Players"), help_text=PLAYERS_HELP
    )

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in re.split(r"[,\n]", self.cleaned_data["players"])]
        return [n for n in names if n]


class ScheduleConfigForm(ServiceForm):
    format = forms.ChoiceField(
        choices=ScheduleConfig.Format.choices, widget=forms.RadioSelect, label=_("Format")
    )
    cycles = forms.TypedChoiceField(
        coerce=int,
        choices=[(1, _("Single (everyone meets once)")), (2, _("Double (home and away)"))],
        initial=1,
        label=_("Single or double"),
    )
    swiss_rounds = forms.IntegerField(
        min_value=1, max_value=99, initial=5, label=_("Swiss rounds"), required=False
    )
    games_per_fixture = forms.IntegerField(
        min_value=1, max_value=9, initial=1, label=_("Games per fixture")
    )
    weekday = forms.TypedChoiceField(coerce=int, choices=WEEKDAYS, label=_("League night"))
    start_date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}), label=_("First league night on or after")
    )
    start_time = forms.TimeField(
        required=False, widget=forms.TimeInput(attrs={"type": "time"}), label=_("Play starts at")
    )
    venues = forms.ModelMultipleChoiceField(
        queryset=Venue.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Venues"),
        help_text=_(
            "Tables fill venue by venue, the biggest first (a venue already in use "
            "keeps its place); with no venue, tables are unlimited."
        ),
    )
    skip_dates = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": _("2026-12-28 Christmas week")}),
        label=_("Nights without play"),
        help_text=SKIP_DATE_FORMAT,
    )

    def __init__(self, *args: Any, club: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["venues"].queryset = Venue.objects.filter(club=club).order_by("name")

    def clean_skip_dates(self) -> list[tuple[dt.date, str]]:
        out = []
        for line in (self.cleaned_data.get("skip_dates") or "").splitlines():
            line = line.strip()
            if not line:
                continue
            day, _, reason = line.partition(" ")
            try:
                out.append((dt.date.fromisoformat(day), reason.strip()))
            except ValueError as exc:
                raise forms.ValidationError(
                    format_lazy(_("{rule} ({line!r})"), rule=SKIP_DATE_FORMAT, line=line)
                ) from exc
        return out

    def clean_swiss_rounds(self) -> int:
        return self.cleaned_data.get("swiss_rounds") or 5


class FixtureMoveForm(ServiceForm):
    date = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label=_("Date"),
        help_text=_("Leave empty to postpone it to a date still to be arranged."),
    )
    venue = forms.ModelChoiceField(queryset=Venue.objects.none(), required=False, label=_("Venue"))
    table = forms.IntegerField(min_value=1, max_value=500, required=False, label=_("Table"))
    note = forms.CharField(
        max_length=200,
        required=False,
        label=_("Why"),
        help_text=_("Shown beside the fixture on the schedule pages and in the calendar."),
    )
    on_no_play_night = forms.BooleanField(
        required=False,
        label=_("Play it on that night even though the division does not play then"),
    )

    def __init__(self, *args: Any, club: Any, home_venue: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The club's venues, and the home team's own (another club's: an inter-club fixture).
        where = Q(club=club) | Q(pk=home_venue.pk) if home_venue is not None else Q(club=club)
        self.fields["venue"].queryset = Venue.objects.filter(where).order_by("name")


class FixtureForfeitForm(ServiceForm):
    KINDS = [
        ("forfeit", _("Forfeit (a team conceded)")),
        ("walkover", _("Walkover (a team did not come)")),
    ]
    #: The word the fixture's note starts with (written in the secretary's language).
    KIND_WORDS = {"forfeit": _("Forfeit"), "walkover": _("Walkover")}

    winner = forms.ModelChoiceField(
        queryset=Team.objects.none(), widget=forms.RadioSelect, label=_("Winner")
    )
    # No kind chosen in advance: the secretary says which it was (a walkover preselected
    # was recorded for forfeits by whoever did not look).
    kind = forms.ChoiceField(choices=KINDS, widget=forms.RadioSelect, label=_("What happened"))
    note = forms.CharField(max_length=150, required=False, label=_("Note"))

    def __init__(self, *args: Any, fixture: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].queryset = Team.objects.filter(
            pk__in=(fixture.home_id, fixture.away_id)
        )

    def note_text(self) -> str:
        kind = str(self.KIND_WORDS[self.cleaned_data["kind"]])
        note = self.cleaned_data.get("note") or ""
        return str(_("{kind}: {note}")).format(kind=kind, note=note) if note else kind


class TeamEditForm(ServiceForm):
    name = forms.CharField(max_length=120, label=_("Team name"))
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Players"),
        help_text=_(
            "One name a line, in seating order; names are matched in any case, new "
            "ones are added to the club. Games already played keep who sat at the table."
        ),
    )
    carried_points = forms.IntegerField(
        label=_("Carried-over points"),
        required=False,  # left out: as it was
        min_value=-9999,
        max_value=9999,
        initial=0,
        help_text=_(
            "A season already under way: the match points the team has from before "
            "its results were entered here (negative for a deduction). Added to its points."
        ),
    )

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in re.split(r"[,\n]", self.cleaned_data["players"])]
        return [n for n in names if n]


class TeamWithdrawForm(ServiceForm):
    on = forms.DateField(
        label=_("Withdraws on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Its fixtures from this day without a result or a game are no longer played."),
    )


class WithdrawalPolicyForm(ServiceForm):
    withdrawal_policy = forms.ChoiceField(
        choices=[],
        widget=forms.RadioSelect,
        label=_("When a team withdraws"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["withdrawal_policy"].choices = Division.Withdrawal.choices
