from django.contrib import admin

from .models import Deal, DealRevision, Game, GameSeat, GameSide


class GameSideInline(admin.TabularInline):
    model = GameSide
    extra = 0


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read-mostly: deals are recorded and corrected through the services, which keep the
    audit history and the totals right; the admin shows them."""

    list_display = ["id", "club", "division", "status", "score_a", "score_b", "winner"]
    list_filter = ["club", "status"]
    inlines = [GameSideInline, GameSeatInline]
    readonly_fields = ["score_a", "score_b", "score_c", "deal_count", "winner", "status"]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "outcome", "maker", "score_a", "score_b"]
    list_filter = ["game__club", "outcome"]
    readonly_fields = [f.name for f in Deal._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(DealRevision)
class DealRevisionAdmin(admin.ModelAdmin):
    list_display = ["game", "deal_number", "action", "user", "at"]
    list_filter = ["action"]
    readonly_fields = [f.name for f in DealRevision._meta.fields]
