"""The Django admin of federations, for site staff: create a federation (with its officers
inline), and look at its clubs, players, links and merges.

Numbers are given by the services only (``next_number`` is not editable and a player's
number is read-only here); merges and erasures go through the officers' pages or the API,
which record them, so their rows are read-only here."""

from django.contrib import admin

from .models import Federation, FederationClub, FederationPlayer, Officer, PlayerLink, PlayerMerge


class OfficerInline(admin.TabularInline):
    model = Officer
    extra = 1
    autocomplete_fields = ["user"]


class FederationClubInline(admin.TabularInline):
    model = FederationClub
    extra = 0
    fields = ["club", "status", "active", "joined_on"]
    autocomplete_fields = ["club"]


@admin.register(Federation)
class FederationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "country", "is_public", "number_prefix", "next_number"]
    readonly_fields = ["next_number", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "slug"]
    inlines = [OfficerInline, FederationClubInline]


@admin.register(FederationPlayer)
class FederationPlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "federation", "home_club", "is_public", "active"]
    list_filter = ["federation", "is_public", "active"]
    search_fields = ["number", "name", "email"]
    readonly_fields = ["federation", "number", "merged_into", "erased_at", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False  # a number is given by an officer or a link, never typed

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # erase instead: results stay


@admin.register(PlayerLink)
class PlayerLinkAdmin(admin.ModelAdmin):
    list_display = ["player", "federation_player", "status", "federation", "decided_at"]
    list_filter = ["federation", "status"]
    readonly_fields = [f.name for f in PlayerLink._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(PlayerMerge)
class PlayerMergeAdmin(admin.ModelAdmin):
    list_display = ["merged", "kept", "federation", "at", "undone_at"]
    readonly_fields = [f.name for f in PlayerMerge._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


admin.site.register(FederationClub)
admin.site.register(Officer)
