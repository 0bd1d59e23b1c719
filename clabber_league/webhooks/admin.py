from django.contrib import admin

from .models import Attempt, Delivery, Subscription


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    """The secret is never shown: the club's admins see it once, when they make it."""

    list_display = ["url", "club", "active", "failing_since", "disabled_at", "created_at"]
    list_filter = ["active", "club"]
    fields = ["club", "url", "description", "events", "active", "disabled_at", "note"]
    readonly_fields = ["club", "disabled_at"]

    def has_add_permission(self, request) -> bool:
        return False


class AttemptInline(admin.TabularInline):
    model = Attempt
    extra = 0
    can_delete = False
    readonly_fields = ["number", "at", "status_code", "duration_ms", "error"]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["event_type", "subscription", "status", "attempts", "created_at"]
    list_filter = ["status", "event_type"]
    readonly_fields = [f.name for f in Delivery._meta.fields]
    inlines = [AttemptInline]

    def has_add_permission(self, request) -> bool:
        return False
