"""Cups in the Django admin: read them; write through the cup pages or the API, whose
services keep the bracket in step with its results."""

from django.contrib import admin

from .models import Cup, Tie


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Cup)
class CupAdmin(ReadOnly):
    list_display = ["name", "club", "format", "best_of", "status", "champion", "created_at"]
    list_filter = ["club", "status"]


@admin.register(Tie)
class TieAdmin(ReadOnly):
    list_display = ["cup", "key", "home", "away", "status", "winner", "date", "table"]
    list_filter = ["cup__club", "status"]
    list_select_related = ["cup", "home", "away", "winner"]
