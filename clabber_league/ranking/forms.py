"""The form of the ranking's settings page: how private players show, and the placing
points written one category a line ("night: 5, 3, 2, 1")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import RankingSettings

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
