"""Forms of the schedule pages: they collect and parse; the services check and write."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms

from clabber_league.leagues.models import Division, Team, Venue
from clabber_league.rules import BUILTIN_RULESETS

from .models import WEEKDAYS, ScheduleConfig

SKIP_DATE_FORMAT = "Write one date a line as YYYY-MM-DD, optionally followed by a reason."
PLAYERS_HELP = "One name a line (or separated by commas), in seating order; new names are added."


def _apply_errors(form: forms.Form, errors: list[dict[str, str]]) -> None:
    """Show a service's errors beside their fields (or above the form)."""
    for error in errors:
        name = error["field"] if error["field"] in form.fields else None
        form.add_error(name, error["message"])


class ServiceForm(forms.Form):
    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        _apply_errors(self, errors)


class VenueForm(ServiceForm):
    name = forms.CharField(max_length=120)
    tables = forms.IntegerField(min_value=1, max_value=500, initial=6)


class SeasonForm(ServiceForm):
    name = forms.CharField(max_length=120)
    start_date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    points_win = forms.IntegerField(min_value=0, max_value=99, initial=2, label="Points for a win")
    points_tie = forms.IntegerField(min_value=0, max_value=99, initial=1, label="Points for a tie")
    points_loss = forms.IntegerField(
        min_value=0, max_value=99, initial=0, label="Points for a loss"
    )


class SeasonEditForm(SeasonForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["name"]


class DivisionForm(ServiceForm):
    name = forms.CharField(max_length=120)
    ruleset = forms.ChoiceField(choices=[])
    games_per_fixture = forms.IntegerField(min_value=1, max_value=9, initial=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(slug, rs.title) for slug, rs in BUILTIN_RULESETS.items()]


class TeamForm(ServiceForm):
    name = forms.CharField(max_length=120, label="Team name")
    players = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), help_text=PLAYERS_HELP)

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in re.split(r"[,\n]", self.cleaned_data["players"])]
        return [n for n in names if n]


class ScheduleConfigForm(ServiceForm):
    format = forms.ChoiceField(choices=ScheduleConfig.Format.choices, widget=forms.RadioSelect)
    cycles = forms.TypedChoiceField(
        coerce=int,
        choices=[(1, "Single (everyone meets once)"), (2, "Double (home and away)")],
        initial=1,
        label="Single or double",
    )
    swiss_rounds = forms.IntegerField(
        min_value=1, max_value=99, initial=5, label="Swiss rounds", required=False
    )
    games_per_fixture = forms.IntegerField(
        min_value=1, max_value=9, initial=1, label="Games per fixture"
    )
    weekday = forms.TypedChoiceField(coerce=int, choices=WEEKDAYS, label="League night")
    start_date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}), label="First league night on or after"
    )
    start_time = forms.TimeField(
        required=False, widget=forms.TimeInput(attrs={"type": "time"}), label="Play starts at"
    )
    venues = forms.ModelMultipleChoiceField(
        queryset=Venue.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Tables fill venue by venue, the biggest first (a venue already in use "
        "keeps its place); with no venue, tables are unlimited.",
    )
    skip_dates = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "2026-12-28 Christmas week"}),
        label="Nights without play",
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
                raise forms.ValidationError(f"{SKIP_DATE_FORMAT} ({line!r})") from exc
        return out

    def clean_swiss_rounds(self) -> int:
        return self.cleaned_data.get("swiss_rounds") or 5


class FixtureMoveForm(ServiceForm):
    date = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Leave empty to postpone it to a date still to be arranged.",
    )
    venue = forms.ModelChoiceField(queryset=Venue.objects.none(), required=False)
    table = forms.IntegerField(min_value=1, max_value=500, required=False)
    note = forms.CharField(
        max_length=200,
        required=False,
        label="Why",
        help_text="Shown beside the fixture on the schedule pages and in the calendar.",
    )
    on_no_play_night = forms.BooleanField(
        required=False,
        label="Play it on that night even though the division does not play then",
    )

    def __init__(self, *args: Any, club: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["venue"].queryset = Venue.objects.filter(club=club).order_by("name")


class FixtureForfeitForm(ServiceForm):
    KINDS = [
        ("forfeit", "Forfeit (a team conceded)"),
        ("walkover", "Walkover (a team did not come)"),
    ]

    winner = forms.ModelChoiceField(queryset=Team.objects.none(), widget=forms.RadioSelect)
    # No kind chosen in advance: the secretary says which it was (a walkover preselected
    # was recorded for forfeits by whoever did not look).
    kind = forms.ChoiceField(choices=KINDS, widget=forms.RadioSelect, label="What happened")
    note = forms.CharField(max_length=150, required=False, label="Note")

    def __init__(self, *args: Any, fixture: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].queryset = Team.objects.filter(
            pk__in=(fixture.home_id, fixture.away_id)
        )

    def note_text(self) -> str:
        kind = dict(self.KINDS)[self.cleaned_data["kind"]].split(" (")[0]
        note = self.cleaned_data.get("note") or ""
        return f"{kind}: {note}" if note else kind


class TeamEditForm(ServiceForm):
    name = forms.CharField(max_length=120, label="Team name")
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One name a line, in seating order; names are matched in any case, new "
        "ones are added to the club. Games already played keep who sat at the table.",
    )
    carried_points = forms.IntegerField(
        label="Carried-over points",
        required=False,  # left out: as it was
        min_value=-9999,
        max_value=9999,
        initial=0,
        help_text="A season already under way: the match points the team has from before "
        "its results were entered here (negative for a deduction). Added to its points.",
    )

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in re.split(r"[,\n]", self.cleaned_data["players"])]
        return [n for n in names if n]


class TeamWithdrawForm(ServiceForm):
    on = forms.DateField(
        label="Withdraws on",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Its fixtures from this day without a result or a game are no longer played.",
    )


class WithdrawalPolicyForm(ServiceForm):
    withdrawal_policy = forms.ChoiceField(
        choices=[],
        widget=forms.RadioSelect,
        label="When a team withdraws",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["withdrawal_policy"].choices = Division.Withdrawal.choices
