"""The events list in the panel: what happened, read-only."""

from django.contrib import admin

from panel.admin import ReadOnlyAdmin, TeamScopedAdmin, live_mode_filter
from panel.roles import Area
from webhooks.models import Event


@admin.register(Event)
class EventAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    panel_area = Area.DEVELOPERS
    list_display = ["id", "type", "team", "created_at"]
    list_filter = [live_mode_filter(), "type", "team"]
    search_fields = ["id", "type"]
    date_hierarchy = "created_at"
    list_select_related = ["team"]
