"""The tiebreakers form: one choice per step, in the order the league applies them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from .models import TIEBREAKERS
from .ordering import TIEBREAKER_TITLES

STEPS = len(TIEBREAKERS)
#: Each step's label, whole: an ordinal agrees with "tiebreaker" in many languages.
STEP_LABELS = [
    _("First tiebreaker"),
    _("Second tiebreaker"),
    _("Third tiebreaker"),
    _("Fourth tiebreaker"),
    _("Fifth tiebreaker"),
    _("Sixth tiebreaker"),
    _("Seventh tiebreaker"),
    _("Eighth tiebreaker"),
]


class TiebreakerForm(forms.Form):
    def __init__(self, *args: Any, initial_order: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("— none —"))] + [
            (name, format_lazy(_("{title}: {text}"), title=TIEBREAKER_TITLES[name], text=text))
            for name, text in TIEBREAKERS.items()
        ]
        for step in range(STEPS):
            self.fields[f"step_{step}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                label=STEP_LABELS[step],
                initial=initial_order[step] if step < len(initial_order) else "",
            )

    def ordered(self) -> list[str]:
        return [
            self.cleaned_data[f"step_{step}"]
            for step in range(STEPS)
            if self.cleaned_data.get(f"step_{step}")
        ]
