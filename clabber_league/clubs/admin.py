from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.db.models import Count, F, Q
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _

from .models import ApiToken, Club, Membership, Player, Role
from .services import LAST_ADMIN, club_approve

#: Why the admin will not delete an account (a line of its "protected" list).
LAST_ADMIN_ACCOUNT = "{user} is the only club admin of {club}: make someone else club admin first."


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
    list_display = ["name", "slug", "city", "country", "time_zone", "is_public", "is_approved"]
    list_filter = ["is_approved", "is_public"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]
    raw_id_fields = ["created_by"]
    actions = ["approve"]

    @admin.action(description=_("Approve the chosen clubs"))
    def approve(self, request, queryset):
        clubs = list(queryset.filter(is_approved=False))
        for club in clubs:
            club_approve(club=club)
        self.message_user(request, _("%(count)d club(s) approved.") % {"count": len(clubs)})


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """A player's login is linked on the club's players page or through the API
    (``services.player_link_user``: a member of the club, one player per login), so it is
    read-only here rather than a second path that skips those checks."""

    list_display = ["name", "club", "user", "active"]
    readonly_fields = ["user"]
    list_filter = ["club", "active"]
    search_fields = ["name"]


def _clubs_only_kept_by(users) -> list[tuple[object, Club]]:
    """(user, club) for every club whose only club admins are among ``users``."""
    ids = [u.pk for u in users]
    clubs = Club.objects.annotate(
        admins=Count("memberships", filter=Q(memberships__role=Role.ADMIN)),
        leaving=Count(
            "memberships", filter=Q(memberships__role=Role.ADMIN, memberships__user__in=ids)
        ),
    ).filter(admins__gt=0, admins=F("leaving"))
    by_user = {u.pk: u for u in users}
    kept = Membership.objects.filter(club__in=clubs, role=Role.ADMIN, user__in=ids)
    return [(by_user[m.user_id], m.club) for m in kept.select_related("club")]


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's account admin, but deleting an account (one or a selection) that is the
    last club admin of a club is refused, as removing that membership is on the pages and
    the API (``services.membership_remove``): the club would be left without an admin."""

    def get_deleted_objects(self, objs, request):
        to_delete, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        protected = list(protected) + [
            LAST_ADMIN_ACCOUNT.format(user=user, club=club)
            for user, club in _clubs_only_kept_by(list(objs))
        ]
        return to_delete, model_count, perms_needed, protected


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Members' API tokens, for the operator to find and revoke (delete) one. No key is
    shown or made here: a member makes their own, on their settings page."""

    list_display = ["name", "user", "scope", "prefix", "created_at", "last_used_at"]
    list_filter = ["scope"]
    search_fields = ["name", "prefix", "user__username"]
    readonly_fields = ["user", "name", "scope", "prefix", "digest", "created_at", "last_used_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
