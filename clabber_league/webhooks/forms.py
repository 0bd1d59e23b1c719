"""The form of a webhook subscription (the service checks the URL and says why it refuses)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import SUBSCRIBABLE


class SubscriptionForm(forms.Form):
    url = forms.CharField(
        label=_("URL"),
        max_length=500,
        help_text=_("Where the events are sent (POST, JSON): https:// on a public address."),
        widget=forms.URLInput(attrs={"inputmode": "url", "autocomplete": "url"}),
    )
    description = forms.CharField(
        label=_("Description"),
        max_length=120,
        required=False,
        help_text=_("For you: what receives them."),
    )
    events = forms.MultipleChoiceField(
        label=_("Events"),
        choices=[(str(c), c.label) for c in SUBSCRIBABLE],
        widget=forms.CheckboxSelectMultiple,
        initial=[str(c) for c in SUBSCRIBABLE],
    )

    def add_service_errors(self, exc) -> None:
        for error in exc.errors:
            field = error["field"] if error["field"] in self.fields else None
            self.add_error(field, error["message"])
