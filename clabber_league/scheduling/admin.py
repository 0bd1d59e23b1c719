from django.contrib import admin

from .models import (
    Fixture,
    LeagueNight,
    ScheduleConfig,
    ScheduleRun,
    ScheduleVenue,
    SkipDate,
)


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["division", "round_number", "home", "away", "date", "venue", "table", "status"]
    list_filter = ["club", "division", "status"]
    raw_id_fields = ["home", "away", "forfeit_winner", "division", "venue"]
    show_full_result_count = False

    def get_readonly_fields(self, request, obj=None):
        """A fixture's result (status, forfeit winner) changes through the schedule pages
        (forfeit, postpone), which keep the standings right; once it has games, its
        division and teams stay as they are too."""
        fields = ["status", "forfeit_winner", "original_date", "flagged_at", "reminded_at"]
        if obj is not None and obj.games.exists():
            fields += ["division", "home", "away", "games_planned"]
        return fields


class ScheduleVenueInline(admin.TabularInline):
    model = ScheduleVenue
    extra = 0


class SkipDateInline(admin.TabularInline):
    model = SkipDate
    extra = 0


@admin.register(ScheduleConfig)
class ScheduleConfigAdmin(admin.ModelAdmin):
    list_display = ["division", "format", "cycles", "swiss_rounds", "weekday", "start_date"]
    list_filter = ["club", "format"]
    inlines = [ScheduleVenueInline, SkipDateInline]


@admin.register(ScheduleRun)
class ScheduleRunAdmin(admin.ModelAdmin):
    list_display = ["id", "division", "state", "progress", "fixtures_created", "created_at"]
    list_filter = ["club", "state"]
    readonly_fields = ["notes", "created_at", "started_at", "heartbeat_at", "finished_at"]


@admin.register(LeagueNight)
class LeagueNightAdmin(admin.ModelAdmin):
    list_display = ["club", "date", "published_at", "fixture_count"]
    list_filter = ["club"]
