"""The Django admin's view of club nights: read and fix rows by hand (the pages and the
API are how clubs run their nights)."""

from django.contrib import admin

from .models import Entry, Event, Pair, Round, Series, SitOut, Table


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "status", "progress"]
    readonly_fields = ["progress"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "name", "date", "kind", "format", "status"]
    list_filter = ["kind", "format", "status"]
    search_fields = ["name"]
    raw_id_fields = ["club", "series", "created_by"]
    inlines = [EntryInline, RoundInline]
    # The next round's committed seed stays secret until that round is drawn, and is the
    # server's choice: nobody reads or types it here.
    exclude = ["seed"]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "name", "method", "best_of", "min_attendance"]
    raw_id_fields = ["club"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["id", "event", "number", "status", "progress"]
    raw_id_fields = ["event", "created_by"]
    # A round's seed is the event's committed one until the round is drawn: the pages and
    # the API show it once drawn; nobody types one here.
    exclude = ["seed"]
    readonly_fields = ["draw_algorithm", "draw_input"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "round", "number", "game"]
    raw_id_fields = ["round", "game"]


admin.site.register(Pair, raw_id_fields=["event", "player_1", "player_2"])
admin.site.register(SitOut, raw_id_fields=["round", "player"])
