from django.contrib import admin

from .models import InterclubTeam, OrganiserSpace, Qualifier, RankingSettings


@admin.register(RankingSettings)
class RankingSettingsAdmin(admin.ModelAdmin):
    list_display = ["federation", "private_players", "queued_at", "dirty_since", "dirty_all"]
    readonly_fields = ["queued_at", "dirty_since", "dirty_all"]


admin.site.register(OrganiserSpace)
admin.site.register(InterclubTeam)
admin.site.register(Qualifier)
