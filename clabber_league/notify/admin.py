from django.contrib import admin

from .models import Notification, NotifySettings, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """What was sent to whom, and what became of it (read only)."""

    list_display = ["title", "user", "kind", "status", "due_at", "sent_at"]
    list_filter = ["kind", "status"]
    readonly_fields = [f.name for f in Notification._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """A member's devices; the keys are never shown."""

    list_display = ["user", "label", "created_at", "last_sent_at"]
    fields = ["user", "label", "created_at", "last_sent_at"]
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False


admin.site.register(NotifySettings)
