from django.contrib import admin

from .models import Fixture, Venue


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "tables"]
    list_filter = ["club"]


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["division", "round_number", "home", "away", "date", "venue", "table", "status"]
    list_filter = ["club", "division", "status"]
