from django.contrib import admin

from core.admin import ReadOnlyAdmin, TeamScopedAdmin
from webhooks.models import Event


@admin.register(Event)
class EventAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    list_display = ["id", "type", "team", "live_mode", "created_at"]
    list_filter = ["type", "live_mode", "team"]
    search_fields = ["id"]
    date_hierarchy = "created_at"
