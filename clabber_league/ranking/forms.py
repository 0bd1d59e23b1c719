"""The form of the ranking's settings page: how private players show, and the placing
points written one category a line ("night: 5, 3, 2, 1")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clabber_league.leagues.models import HouseRules, Venue
from clabber_league.rules import BUILTIN_RULESETS

from .models import InterclubTeam, RankingSettings

POINTS_LINE = _('Write one kind of event a line, as "night: 5, 3, 2, 1" (whole points).')


def points_text(points: dict[str, list[int]]) -> str:
    return "\n".join(f"{k}: {', '.join(str(p) for p in v)}" for k, v in sorted(points.items()))


class RankingSettingsForm(forms.Form):
    private_players = forms.ChoiceField(
        choices=RankingSettings.Private.choices,
        label=_("Players who keep their profile private"),
    )
    placing_points = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=_("Points per placing, by kind of event"),
        help_text=_('One kind a line: "night: 5, 3, 2, 1". Kinds: league, cup, night, friendly.'),
    )

    def clean_placing_points(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for line in self.cleaned_data["placing_points"].splitlines():
            if not line.strip():
                continue
            category, sep, values = line.partition(":")
            try:
                points = [int(v) for v in values.split(",") if v.strip()]
            except ValueError:
                points = None
            if not sep or not category.strip() or points is None:
                raise forms.ValidationError(POINTS_LINE)
            out[category.strip().lower()] = points
        return out

    def add_service_errors(self, errors: list[dict[str, Any]]) -> None:
        from clabber_league.core.i18n import translated

        for error in errors:
            field = error.get("field")
            self.add_error(field if field in self.fields else None, translated(error["message"]))


class InterclubHomeForm(forms.Form):
    """Where an inter-club team plays its home fixtures and by which rules: its home
    club's venues and house rules to choose from, or a built-in rule set."""

    venue = forms.ModelChoiceField(
        queryset=Venue.objects.none(),
        required=False,
        label=_("Home venue"),
        help_text=_("Its home fixtures not yet started move there; the home club seats them."),
    )
    house_rules = forms.ModelChoiceField(
        queryset=HouseRules.objects.none(),
        required=False,
        label=_("The home club's house rules"),
    )
    ruleset = forms.ChoiceField(
        required=False,
        label=_("Or a built-in rule set"),
        help_text=_("Neither: the division's rules. Games already started keep their rules."),
    )

    def __init__(self, *args: Any, row: InterclubTeam, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {"venue": row.venue_id, "house_rules": row.house_rules_id, "ruleset": row.ruleset},
        )
        super().__init__(*args, **kwargs)
        self.fields["venue"].queryset = Venue.objects.filter(club_id=row.home_club_id)
        self.fields["house_rules"].queryset = HouseRules.objects.filter(club_id=row.home_club_id)
        self.fields["ruleset"].choices = [("", _("None"))] + [
            (slug, rs.title) for slug, rs in BUILTIN_RULESETS.items()
        ]

    def add_service_errors(self, errors: list[dict[str, Any]]) -> None:
        from clabber_league.core.i18n import translated

        for error in errors:
            field = error.get("field")
            self.add_error(field if field in self.fields else None, translated(error["message"]))
