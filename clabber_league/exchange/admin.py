from django.contrib import admin

from .models import ImportedGame, ImportedResult, Period, ResultFile


@admin.register(ResultFile)
class ResultFileAdmin(admin.ModelAdmin):
    list_display = ["name", "federation", "club", "event_key", "date_to", "status", "created_at"]
    list_filter = ["status", "kind", "federation"]
    readonly_fields = ["sha256", "payload", "flags", "replaced_by", "created_at"]


admin.site.register(Period)
admin.site.register(ImportedResult)
admin.site.register(ImportedGame)
