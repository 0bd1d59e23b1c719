"""Forms of the members' pages; the services check everything that matters."""

from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import ApiToken, Role

PIN_MISMATCH = _("The two PINs differ: type the same PIN twice.")


class AxesLoginForm(LoginForm):
    """allauth's sign-in form, telling django-axes which username was tried (its field is
    called ``login``), so five wrong passwords lock that username out as before."""

    def user_credentials(self) -> dict:
        credentials = super().user_credentials()
        credentials["login"] = credentials.get("username") or credentials.get("email")
        return credentials


class InvitationForm(forms.Form):
    email = forms.EmailField(
        required=False,
        label=_("Email"),
        help_text=_("We email them the link. Leave empty to show a QR code to scan instead."),
    )
    note = forms.CharField(
        required=False,
        max_length=120,
        label=_("Note"),
        help_text=_("Who it is for (only admins see this)."),
    )
    role = forms.ChoiceField(choices=Role.choices, initial=Role.PLAYER, label=_("Role"))
    player = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label=_("Player"),
        help_text=_("The club's player they are; leave empty to let them choose when they join."),
    )
    days = forms.IntegerField(min_value=1, max_value=90, initial=14, label=_("Lasts (days)"))

    def __init__(self, *args, players=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", _("They choose")), *[(p.pk, p.name) for p in players]]


class JoinForm(forms.Form):
    player = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label=_("I am"),
        help_text=_("A club admin checks this before your login is linked to that player."),
    )
    new_name = forms.CharField(
        required=False,
        max_length=120,
        label=_("Not in the list? Your name as it goes on the sheet"),
    )
    name_public = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Show my name on the club's public pages (else only my initials)"),
    )

    def __init__(self, *args, players=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", _("Choose…")), *[(p.pk, p.name) for p in players]]


class PinForm(forms.Form):
    pin = forms.CharField(
        min_length=4,
        max_length=6,
        label=_("New PIN (4 to 6 digits)"),
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


class PrivacyForm(forms.Form):
    name_public = forms.BooleanField(
        required=False, label=_("Show my name on the public pages of public clubs")
    )


class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language of the pages"),
        required=False,
        help_text=_(
            "Yours on every page, in every club. Follow the club: each club's own language "
            "(elsewhere, your browser's)."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            ("", _("Follow the club")),
            *((code, name) for code, name in settings.LANGUAGES),
        ]


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        max_length=60,
        label=_("Token name"),
        help_text=_("What it is for, to know it by later: “Results board in the hall”."),
    )
    scope = forms.ChoiceField(
        choices=ApiToken.Scope.choices,
        initial=ApiToken.Scope.READ,
        label=_("Scope"),
        help_text=_(
            "Read: reads only. Score: also scores and confirms games, manages nothing. "
            "Admin: whatever your role in a club allows."
        ),
    )


def _pin_field(label: Any) -> forms.CharField:
    """A PIN as typed: masked, the phone's number pad; the service checks the digits (so
    that other scripts' digits get their own message)."""
    return forms.CharField(
        max_length=6,
        label=label,
        widget=forms.PasswordInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": "6"}
        ),
    )


class HandoverForm(forms.Form):
    """One side accepts: who they are and their PIN."""

    player = forms.CharField(label=_("Who is accepting"))
    pin = _pin_field(_("Your PIN"))


class DisputeForm(forms.Form):
    player = forms.CharField(required=False, label=_("Who disputes"))
    pin = forms.CharField(
        required=False,
        max_length=6,
        label=_("Your PIN"),
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    reason = forms.CharField(
        max_length=1000, widget=forms.Textarea(attrs={"rows": 3}), label=_("What is wrong")
    )


class NewPinForm(forms.Form):
    """A player types a new PIN on someone else's phone (twice, as nobody sees it)."""

    player = forms.CharField(label=_("Who sets a PIN"))
    pin = _pin_field(_("New PIN (4 to 6 digits)"))
    pin_again = _pin_field(_("The same PIN again"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("pin") and data.get("pin_again") != data.get("pin"):
            self.add_error("pin_again", PIN_MISMATCH)
        return data


class TablePinForm(NewPinForm):
    """At the table, a club admin present approves the new PIN with their own secret."""

    admin = forms.CharField(label=_("Club admin who approves"))
    admin_secret = forms.CharField(
        max_length=128,
        label=_("The club admin's PIN or password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )


class ResolveForm(forms.Form):
    resolution = forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("What the club decided"),
    )


class PlayerMergeForm(forms.Form):
    into = forms.CharField(
        max_length=120,
        label=_("Same person as"),
        help_text=_("The player who stays, by name (any case). This one is merged into them."),
    )
