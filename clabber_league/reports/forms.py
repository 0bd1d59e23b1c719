"""The secretary's forms: a report's text, the club's approval setting, a league night."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.forms import ServiceForm


class ReportForm(ServiceForm):
    title = forms.CharField(label=_("Title"), max_length=200)
    body = forms.CharField(
        label=_("Text"),
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 16}),
        help_text=_("Plain text: what the club's page shows and the newsletter gets."),
    )


class ReportSettingsForm(ServiceForm):
    needs_approval = forms.BooleanField(
        label=_("Reports wait for a club admin's approval before they are published"),
        required=False,
    )


class LeagueNightForm(ServiceForm):
    date = forms.DateField(label=_("League night"), widget=forms.DateInput(attrs={"type": "date"}))
