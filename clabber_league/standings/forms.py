"""The tiebreakers form: one choice per step, in the order the league applies them."""

from __future__ import annotations

from typing import Any

from django import forms

from .models import TIEBREAKERS
from .ordering import TIEBREAKER_TITLES

STEPS = len(TIEBREAKERS)
ORDINALS = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth"]


class TiebreakerForm(forms.Form):
    def __init__(self, *args: Any, initial_order: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "— none —")] + [
            (name, f"{TIEBREAKER_TITLES[name]}: {text}") for name, text in TIEBREAKERS.items()
        ]
        for step in range(STEPS):
            self.fields[f"step_{step}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                label=f"{ORDINALS[step]} tiebreaker",
                initial=initial_order[step] if step < len(initial_order) else "",
            )

    def ordered(self) -> list[str]:
        return [
            self.cleaned_data[f"step_{step}"]
            for step in range(STEPS)
            if self.cleaned_data.get(f"step_{step}")
        ]
