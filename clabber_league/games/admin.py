from django.contrib import admin

from .models import Deal, DealRevision, Game, GameSeat, GameSide


class _ReadOnlyInline(admin.TabularInline):
    """Who sat where and for which team decides the standings: shown, never changed here."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class GameSideInline(_ReadOnlyInline):
    model = GameSide


class GameSeatInline(_ReadOnlyInline):
    model = GameSeat


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read-mostly: deals are recorded and corrected through the services, which keep the
    audit history and the totals right; the admin shows them."""

    list_display = ["id", "club", "division", "status", "score_a", "score_b", "winner"]
    list_filter = ["club", "status"]
    inlines = [GameSideInline, GameSeatInline]
    readonly_fields = [
        "club",
        "division",
        "fixture",
        "rules",
        "first_dealer",
        "score_a",
        "score_b",
        "score_c",
        "deal_count",
        "winner",
        "status",
        "finished_at",
        "confirmed_at",
        "confirmed_by",
        "created_by",
        "deleted_keys",  # a retry's answer after its deal was deleted (services.deal_delete)
    ]

    # A game is started and its deals recorded through the services (the audit history,
    # the totals and the standings stay right); the admin neither adds nor deletes one.
    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "outcome", "maker", "score_a", "score_b"]
    list_filter = ["game__club", "outcome"]
    readonly_fields = [f.name for f in Deal._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(DealRevision)
class DealRevisionAdmin(admin.ModelAdmin):
    list_display = ["game", "deal_number", "action", "user", "at"]
    list_filter = ["action"]
    readonly_fields = [f.name for f in DealRevision._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
