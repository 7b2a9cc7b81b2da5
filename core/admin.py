"""The panel is multi-tenant: support staff see every team, agency users only their own."""

from django.contrib import admin


class TeamScopedAdmin(admin.ModelAdmin):
    """Scopes an admin to the logged-in agency user's team (rows, foreign-key choices, the team
    of new rows). `team_field` is the lookup from the model to its team."""

    team_field = "team"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_support:
            return queryset
        return queryset.filter(**{self.team_field: request.user.team_id})

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_support:
            related = db_field.related_model
            if related._meta.label == "agencies.Team":
                kwargs["queryset"] = related.objects.filter(pk=request.user.team_id)
            elif any(f.name == "team" for f in related._meta.get_fields()):
                kwargs["queryset"] = related._default_manager.filter(team=request.user.team_id)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or [])
        if not request.user.is_support and self.team_field == "team":
            exclude.append("team")  # an agency user's rows always belong to their team
        return exclude

    def get_list_display(self, request):
        display = super().get_list_display(request)
        if request.user.is_support:
            return display
        return [name for name in display if name != "team"]

    def get_list_filter(self, request):
        filters = super().get_list_filter(request)
        if request.user.is_support:
            return filters
        return [f for f in filters if f != "team"]

    def save_model(self, request, obj, form, change):
        if not change and not request.user.is_support and self.team_field == "team":
            obj.team_id = request.user.team_id
        super().save_model(request, obj, form, change)


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records nobody edits in the panel (ledger rows, events)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
