"""Forms of the secretary's pages: they collect and parse; the services check and write."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club
from clabber_league.leagues.models import HouseRules

from .models import Event, Series
from .services.events import night_rulesets

HOUSE = "house:"


def _apply_errors(form: forms.Form, errors: list[dict[str, str]], renames: dict[str, str]) -> None:
    """Show a service's errors beside their fields (or above the form)."""
    for error in errors:
        name = renames.get(error["field"], error["field"])
        form.add_error(name if name in form.fields else None, error["message"])


def _cents(value: Decimal | None) -> int:
    return int((value or Decimal(0)) * 100)


class EventForm(forms.Form):
    """An event's settings. Money is entered in the currency (2.50), kept in cents."""

    name = forms.CharField(max_length=120, label=_("Name"))
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Date"))
    kind = forms.ChoiceField(choices=Event.Kind.choices, initial=Event.Kind.NIGHT, label=_("Kind"))
    rules = forms.ChoiceField(
        choices=[], label=_("Game"), help_text=_("A rule set, or house rules.")
    )
    format = forms.ChoiceField(
        choices=Event.Format.choices, initial=Event.Format.INDIVIDUAL, label=_("Format")
    )
    movement = forms.ChoiceField(
        choices=Event.Movement.choices,
        initial=Event.Movement.MITCHELL,
        label=_("Movement of fixed pairs"),
    )
    rounds = forms.IntegerField(min_value=1, max_value=30, initial=4, label=_("Rounds"))
    round_kind = forms.ChoiceField(
        choices=Event.RoundKind.choices, initial=Event.RoundKind.GAME, label=_("A round is")
    )
    round_deals = forms.IntegerField(
        required=False,
        min_value=1,
        label=_("Deals in a round"),
        help_text=_("For a round of N deals."),
    )
    round_minutes = forms.IntegerField(
        required=False,
        min_value=1,
        label=_("Minutes in a round"),
        help_text=_("For a timed round."),
    )
    table_plan = forms.ChoiceField(
        choices=Event.TablePlan.choices,
        initial=Event.TablePlan.MIXED,
        required=False,
        label=_("Tables"),
        help_text=_(
            "When the players do not fill tables of four: the rest at tables of three (a game "
            "with a three-hand form), or tables of one size and the rest sit out in turn."
        ),
    )
    ranking = forms.ChoiceField(
        choices=[("", _("The default for the game")), *Event.Ranking.choices],
        required=False,
        label=_("Ranking"),
        help_text=_(
            "How a round at a table scores. The default: share of the table's points for a "
            "game that can seat tables of four and of three, points as scored otherwise."
        ),
    )
    sit_out_rule = forms.ChoiceField(
        choices=Event.SitOutRule.choices,
        initial=Event.SitOutRule.AVERAGE,
        label=_("A sit-out scores"),
    )
    sit_out_score = forms.IntegerField(
        min_value=0, initial=0, label=_("Fixed sit-out score"), help_text=_("With a fixed score.")
    )
    entry_fee = forms.DecimalField(
        min_value=0, max_digits=7, decimal_places=2, initial=0, label=_("Entry fee")
    )
    prize_rule = forms.ChoiceField(
        choices=Event.PrizeRule.choices, initial=Event.PrizeRule.NONE, label=_("Prize rule")
    )
    prize_shares = forms.CharField(
        required=False,
        max_length=200,
        label=_("Prize shares (%)"),
        help_text=_(
            "For the rule 'a fixed list of shares': percentages of the fund, best "
            "place first, such as 50, 30, 20."
        ),
    )
    hick_stake = forms.DecimalField(
        min_value=0,
        max_digits=7,
        decimal_places=2,
        initial=0,
        label=_("Hick stake"),
        help_text=_("Paid into the night's pot for every hick (0: no pot)."),
    )
    series = forms.ChoiceField(choices=[], required=False, label=_("Series of nights"))

    #: The service's field names that this form calls otherwise.
    RENAMES = {"entry_fee_cents": "entry_fee", "hick_stake_cents": "hick_stake"}

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        house = HouseRules.objects.filter(club=club).order_by("name")[:100]
        self.house_rules = {f"{HOUSE}{h.pk}": h for h in house}
        self.fields["rules"].choices = [
            (_("Rule sets"), night_rulesets()),
            (_("The club's house rules"), [(k, h.name) for k, h in self.house_rules.items()]),
        ]
        series = Series.objects.filter(club=club).order_by("-created_at")[:100]
        self.series = {str(s.pk): s for s in series}
        self.fields["series"].choices = [("", _("None"))] + [
            (k, s.name) for k, s in self.series.items()
        ]

    @staticmethod
    def initial_for(event: Event) -> dict[str, Any]:
        rules = event.rules
        if isinstance(rules, dict):
            found = HouseRules.objects.filter(club_id=event.club_id, name=rules.get("name")).first()
            rules = f"{HOUSE}{found.pk}" if found else ""
        return {
            "name": event.name,
            "date": event.date,
            "kind": event.kind,
            "rules": rules,
            "format": event.format,
            "movement": event.movement,
            "rounds": event.rounds,
            "round_kind": event.round_kind,
            "round_deals": event.round_deals,
            "round_minutes": event.round_minutes,
            "table_plan": event.table_plan,
            "ranking": event.ranking,
            "sit_out_rule": event.sit_out_rule,
            "sit_out_score": event.sit_out_score,
            "entry_fee": Decimal(event.entry_fee_cents) / 100,
            "prize_rule": event.prize_rule,
            "prize_shares": ", ".join(str(share) for share in event.prize_shares or []),
            "hick_stake": Decimal(event.hick_stake_cents) / 100,
            "series": str(event.series_id or ""),
        }

    def clean_prize_shares(self) -> list[int]:
        """ "50, 30, 20" (or "50% 30% 20%") as a list of whole numbers; the service checks
        that they make a list of shares."""
        text = self.cleaned_data.get("prize_shares") or ""
        parts = [p for p in text.replace("%", " ").replace(",", " ").replace(";", " ").split()]
        if not all(p.isdigit() for p in parts):
            raise forms.ValidationError(
                _("Give the shares as whole percentages separated by commas, such as 50, 30, 20.")
            )
        return [int(p) for p in parts]

    def values(self) -> dict[str, Any]:
        """The service's keyword arguments from the cleaned data."""
        data = dict(self.cleaned_data)
        rules = data.pop("rules")
        if rules.startswith(HOUSE):
            rules = self.house_rules[rules].as_rules_data()
        series = self.series.get(data.pop("series") or "")
        fee, stake = _cents(data.pop("entry_fee")), _cents(data.pop("hick_stake"))
        data["ranking"] = data.get("ranking") or None  # None: the rules' default
        data["table_plan"] = data.get("table_plan") or Event.TablePlan.MIXED
        return {
            **data,
            "rules": rules,
            "series": series,
            "entry_fee_cents": fee,
            "hick_stake_cents": stake,
        }

    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        _apply_errors(self, errors, self.RENAMES)


class WalkInForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Walk-in's name"))

    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        _apply_errors(self, errors, {})


class PairForm(forms.Form):
    name_1 = forms.CharField(max_length=120, label=_("First player"))
    name_2 = forms.CharField(max_length=120, label=_("Partner"))


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Series name"))
    method = forms.ChoiceField(choices=Series.Method.choices, label=_("Ranked by"))
    best_of = forms.IntegerField(required=False, min_value=1, max_value=100, label=_("N (best N)"))
    min_attendance = forms.IntegerField(
        min_value=0, max_value=100, initial=0, label=_("Minimum attendance (nights)")
    )

    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        _apply_errors(self, errors, {})
