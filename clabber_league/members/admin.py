from django.contrib import admin

from .models import Dispute, Invitation, MemberProfile


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "email", "role", "player", "created_at", "expires_at", "accepted_at"]
    list_filter = ["club", "role"]
    readonly_fields = ["created_by", "created_at", "accepted_at", "accepted_by"]


@admin.register(MemberProfile)
class MemberProfileAdmin(admin.ModelAdmin):
    """The PIN is never shown: only whether one is set, when and where."""

    list_display = ["__str__", "user", "has_pin", "pin_set_at", "pin_set_how"]
    fields = ["user", "pin_set_at", "pin_set_how"]
    readonly_fields = ["user", "pin_set_at", "pin_set_how"]


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    list_display = ["game", "club", "player", "raised_at", "resolved_at"]
    list_filter = ["club"]
    readonly_fields = [f.name for f in Dispute._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
