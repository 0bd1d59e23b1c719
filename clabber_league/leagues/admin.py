from django.contrib import admin

from .models import Division, HouseRules, Season, Team, TeamMember, Venue


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "tables"]
    list_filter = ["club"]


@admin.register(HouseRules)
class HouseRulesAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "base"]
    list_filter = ["club"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start_date", "end_date"]
    list_filter = ["club"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "ruleset", "house_rules"]
    list_filter = ["club", "season"]
    prepopulated_fields = {"slug": ["name"]}

    def get_readonly_fields(self, request, obj=None):
        # A division with games keeps its club and season: its standings are its games'.
        if obj is not None and obj.games.exists():
            return ["club", "season", "ruleset", "house_rules"]
        return []


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    extra = 0


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "division", "club"]
    list_filter = ["club", "division"]
    search_fields = ["name"]
    inlines = [TeamMemberInline]

    def get_readonly_fields(self, request, obj=None):
        # A team that has played keeps its division and club: moving it would leave its
        # games and standings behind (standings_check reports such a team).
        if obj is not None and obj.game_sides.exists():
            return ["club", "division"]
        return []
