"""The form of the ranking's settings page: how private players show, and the placing
points written one category a line ("night: 5, 3, 2, 1")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from clabber_league.cups.models import Cup
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


#: Qualifier rows the final's page offers (the API takes up to championship.MAX_QUALIFIERS).
QUALIFIER_ROWS = 8


class ChampionshipFinalForm(forms.Form):
    """A championship final: its name and rules, and up to eight qualifiers in seeding
    order, each with how many of its top players go through."""

    name = forms.CharField(max_length=120, label=_("Name of the final"))
    ruleset = forms.ChoiceField(
        required=False,
        label=_("Rule set"),
        help_text=_(
            "A final of players plays a two- or three-handed rule set; blank: the division's."
        ),
    )
    division = forms.ChoiceField(
        required=False,
        label=_("Division of the organiser space"),
        help_text=_("Only for cups of teams: the division their winners are registered in."),
    )
    format = forms.ChoiceField(choices=Cup.Format.choices, label=_("Format"))

    def __init__(
        self,
        *args: Any,
        candidates: list[tuple[str, str, str]],
        divisions: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        kinds = {"cup": _("Cups"), "night": _("Club nights"), "series": _("Series of nights")}
        groups = [
            (kinds[kind], [(value, label) for value, k, label in candidates if k == kind])
            for kind in kinds
        ]
        choices = [("", "—")] + [(name, rows) for name, rows in groups if rows]
        self.fields["ruleset"].choices = [("", "—")] + [
            (slug, rs.title) for slug, rs in BUILTIN_RULESETS.items()
        ]
        self.fields["division"].choices = [("", "—")] + [(str(pk), n) for pk, n in divisions]
        for row in range(1, QUALIFIER_ROWS + 1):
            self.fields[f"qualifier_{row}"] = forms.ChoiceField(
                required=False,
                choices=choices,
                label=format_lazy(_("Qualifier {number}"), number=row),
                help_text=_("Seeded in this order.") if row == 1 else "",
            )
            self.fields[f"places_{row}"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=64,
                initial=1,
                label=format_lazy(_("Players through from qualifier {number}"), number=row),
                help_text=_("A night or series: its top N. A cup: its winner.") if row == 1 else "",
            )

    def qualifiers(self) -> list[tuple[int, str, str, int]]:
        """The rows chosen: (row, kind, id, places)."""
        out = []
        for row in range(1, QUALIFIER_ROWS + 1):
            value = self.cleaned_data.get(f"qualifier_{row}") or ""
            if value:
                kind, _sep, pk = value.partition(":")
                out.append((row, kind, pk, self.cleaned_data.get(f"places_{row}") or 1))
        return out

    def add_service_errors(
        self, errors: list[dict[str, Any]], rows: list[int] | None = None
    ) -> None:
        """The service's errors beside their fields: ``qualifiers[i]`` is the i-th row
        chosen (``rows`` maps it to the form's row number)."""
        from clabber_league.core.i18n import translated

        rows = rows or []
        for error in errors:
            field = str(error.get("field") or "")
            name = {"rules": "ruleset", "entrant_kind": "ruleset"}.get(field, field)
            if field.startswith("qualifiers[") and "]" in field:
                index = field[len("qualifiers[") : field.index("]")]
                row = rows[int(index)] if index.isdigit() and int(index) < len(rows) else None
                if row is not None:
                    kind = "places" if field.endswith(".places") else "qualifier"
                    name = f"{kind}_{row}"
            self.add_error(name if name in self.fields else None, translated(error["message"]))


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
