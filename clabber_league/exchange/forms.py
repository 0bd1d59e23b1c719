"""The officer's forms: a results file to upload, a period to open."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Results file"),
        help_text=_("The file a club's program exported: JSON or its XML form."),
    )


class PeriodForm(forms.Form):
    start = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
