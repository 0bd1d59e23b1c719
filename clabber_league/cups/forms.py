"""Forms of the cup pages: they collect and parse; the services check and write."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club
from clabber_league.rules import BUILTIN_RULESETS
from clabber_league.scheduling.forms import ServiceForm

from .models import Cup, Stage

#: The most teams or players offered on the page at once (the API takes up to 1,024).
MAX_CHOICES = 300


class CupForm(ServiceForm):
    MODES = [
        ("divisions", _("Play-offs: the top teams of divisions")),
        ("list", _("A cup of the teams or players I choose")),
    ]

    name = forms.CharField(max_length=120, label=_("Name"))
    mode = forms.ChoiceField(
        choices=MODES, widget=forms.RadioSelect, initial="divisions", label=_("What it is")
    )
    divisions = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Divisions"),
        help_text=_("Play-offs: from these."),
    )
    top = forms.IntegerField(
        required=False, min_value=2, max_value=1024, initial=4, label=_("How many go through")
    )
    per = forms.ChoiceField(
        choices=Stage.Per.choices, initial=Stage.Per.DIVISION, label=_("Counted")
    )
    tie_rule = forms.ChoiceField(
        choices=Stage.TieRule.choices, label=_("Teams level for the last place")
    )
    entrant_kind = forms.ChoiceField(choices=Cup.Kind.choices, label=_("Entrants"))
    teams = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Teams"),
        help_text=_("A cup: these teams."),
    )
    players = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Players"),
        help_text=_("A cup: these players."),
    )
    ruleset = forms.ChoiceField(
        required=False, label=_("Rule set"), help_text=_("Blank: the first division's.")
    )
    format = forms.ChoiceField(choices=Cup.Format.choices, label=_("Format"))
    best_of = forms.TypedChoiceField(
        choices=[(1, _("One game")), (3, _("Best of 3")), (5, _("Best of 5")), (7, _("Best of 7"))],
        coerce=int,
        label=_("A tie is"),
    )
    third_place = forms.BooleanField(required=False, label=_("Third-place match"))
    plate = forms.BooleanField(required=False, label=_("A plate for the first round's losers"))
    final_reset = forms.BooleanField(
        required=False, label=_("Double elimination: a second final if the first is lost")
    )
    seeding = forms.ChoiceField(
        choices=[c for c in Cup.Seeding.choices if c[0] != Cup.Seeding.STANDINGS],
        required=False,
        label=_("Seeding"),
        help_text=_("A cup of chosen entrants (play-offs are seeded by the standings)."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        divisions = club.divisions.select_related("season").order_by("-season__start_date", "name")[
            :50
        ]
        self.fields["divisions"].choices = [
            (d.pk, f"{d.season.name} · {d.name}") for d in divisions
        ]
        teams = club.teams.select_related("division").filter(withdrawn_on__isnull=True)
        teams = teams.order_by("-division__season__start_date", "division__name", "name")
        self.fields["teams"].choices = [
            (t.pk, f"{t.name} ({t.division.name})") for t in teams[:MAX_CHOICES]
        ]
        players = club.players.filter(active=True).order_by("name")[:MAX_CHOICES]
        self.fields["players"].choices = [(p.pk, p.name) for p in players]
        rulesets = [("", "—")] + [(slug, rs.title) for slug, rs in BUILTIN_RULESETS.items()]
        self.fields["ruleset"].choices = rulesets


class SeedForm(ServiceForm):
    seeding = forms.ChoiceField(choices=Cup.Seeding.choices, label=_("Seeding"))


class PlaceRoundForm(ServiceForm):
    section = forms.ChoiceField(label=_("Round"))
    division = forms.ChoiceField(label=_("On the league nights and tables of"))
    start = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=_("From")
    )

    def __init__(self, *args: Any, club: Club, sections: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["section"].choices = sections
        configs = club.schedule_configs.select_related("division__season").order_by(
            "-division__season__start_date", "division__name"
        )[:50]
        self.fields["division"].choices = [
            (c.division_id, f"{c.division.season.name} · {c.division.name}") for c in configs
        ]


class WalkoverForm(ServiceForm):
    absent = forms.ChoiceField(
        choices=[("home", _("Home")), ("away", _("Away")), ("third", _("Third"))],
        label=_("The side that did not play"),
    )
    note = forms.CharField(required=False, max_length=200, label=_("Note"))

    def __init__(self, *args: Any, sides: list[tuple[str, str]] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if sides is not None:  # the tie's sides that play, by name
            self.fields["absent"].choices = sides


class TiePlaceForm(ServiceForm):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Date"))
    venue = forms.ChoiceField(required=False, label=_("Venue"))
    table = forms.IntegerField(required=False, min_value=1, max_value=500, label=_("Table"))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["venue"].choices = [("", "—")] + [
            (v.pk, v.name) for v in club.venues.order_by("name")[:100]
        ]
