"""The notifications section of ``/me/settings/``: per kind, push and email; quiet hours."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Channel, Kind, NotifySettings


class NotifyForm(forms.Form):
    quiet_start = forms.TimeField(
        label=_("Quiet from"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_end = forms.TimeField(
        label=_("Quiet until"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in Kind:
            for channel in Channel:
                self.fields[f"{kind.value}_{channel.value}"] = forms.BooleanField(
                    label=f"{channel.label}: {kind.label}", required=False
                )

    @classmethod
    def for_settings(cls, row: NotifySettings) -> NotifyForm:
        initial: dict[str, Any] = {"quiet_start": row.quiet_start, "quiet_end": row.quiet_end}
        for kind in Kind:
            for channel in row.chosen(kind.value):
                initial[f"{kind.value}_{channel}"] = True
        return cls(initial=initial)

    def rows(self) -> list[tuple[str, Any, Any]]:
        """(the kind's label, its push box, its email box) per kind, for the table."""
        return [
            (kind.label, self[f"{kind.value}_push"], self[f"{kind.value}_email"]) for kind in Kind
        ]

    def channels(self) -> dict[str, list[str]]:
        data = self.cleaned_data
        return {
            kind.value: [c.value for c in Channel if data.get(f"{kind.value}_{c.value}")]
            for kind in Kind
        }

    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        for error in errors:
            field = error.get("field")
            self.add_error(field if field in self.fields else None, error["message"])
