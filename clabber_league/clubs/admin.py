from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from .models import Club, Membership, Player, Role
from .services import LAST_ADMIN


class MembershipFormSet(BaseInlineFormSet):
    """The admin keeps the rule the pages and the API keep (``services.membership_update``,
    ``membership_remove``): a club that has a club admin keeps at least one, so neither
    demoting nor deleting the last one goes through here either."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors) or self.instance.pk is None:
            return
        had_admin = Membership.objects.filter(club=self.instance, role=Role.ADMIN).exists()
        admins_after = sum(
            1
            for form in self.forms
            if form.cleaned_data
            and not form.cleaned_data.get("DELETE")
            and form.cleaned_data.get("role") == Role.ADMIN
        )
        if had_admin and not admins_after:
            raise ValidationError(LAST_ADMIN)


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = MembershipFormSet
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "is_public"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """A player's login is linked on the club's players page or through the API
    (``services.player_link_user``: a member of the club, one player per login), so it is
    read-only here rather than a second path that skips those checks."""

    list_display = ["name", "club", "user", "active"]
    readonly_fields = ["user"]
    list_filter = ["club", "active"]
    search_fields = ["name"]
