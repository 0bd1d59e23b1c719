from django.contrib import admin

from .models import Report, ReportSettings


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["title", "club", "kind", "status", "published_at"]
    list_filter = ["kind", "status"]
    readonly_fields = ["club", "kind", "key", "generated_title", "generated", "language"]


admin.site.register(ReportSettings)
