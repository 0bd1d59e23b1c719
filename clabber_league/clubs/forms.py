"""Forms of a club's own pages: creating it, its settings, adding members, deleting it.
They collect; the services check and write."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clabber_league.core.i18n import translated
from clabber_league.rules import BUILTIN_RULESETS


class ServiceForm(forms.Form):
    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        for error in errors:
            field = error.get("field")
            self.add_error(field if field in self.fields else None, translated(error["message"]))


def _zones() -> list[tuple[str, str]]:
    return [(z, z.replace("_", " ")) for z in sorted(zoneinfo.available_timezones()) if "/" in z]


class ClubForm(ServiceForm):
    name = forms.CharField(label=_("Club name"), max_length=120)
    country = forms.CharField(label=_("Country"), max_length=60, required=False)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("Club nights, reminders and “tonight” follow it."),
    )
    language = forms.ChoiceField(label=_("Language"))
    ruleset = forms.ChoiceField(
        label=_("Rule set"),
        help_text=_("What the club plays; a division can play another, or house rules."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = _zones()
        self.fields["time_zone"].initial = settings.TIME_ZONE
        self.fields["language"].choices = [
            ("", _("The site's language")),
            *sorted(((code, str(name)) for code, name in settings.LANGUAGES), key=lambda c: c[1]),
        ]
        self.fields["language"].required = False
        self.fields["ruleset"].choices = [(slug, rs.title) for slug, rs in BUILTIN_RULESETS.items()]


class HouseRulesChoice(forms.Form):
    house_rules = forms.CharField(
        label=_("House rules (optional)"),
        max_length=80,
        required=False,
        help_text=_("A name for the club's own variant of the rule set, to adjust later."),
    )


class RosterForm(ServiceForm):
    text = forms.CharField(
        label=_("Members, one a line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "autocomplete": "off"}),
        help_text=_("A name, or a name, a comma and an email address (they get an invitation)."),
    )
    file = forms.FileField(
        label=_("Or a CSV file (name, email)"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,text/plain"}),
    )


class ClubDeleteForm(ServiceForm):
    name = forms.CharField(label=_("The club's name"), max_length=200)
