from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import PermissionDenied

from agencies.models import ApiKey, Client, Integration, Team, User
from agencies.services import (
    IntegrationAlreadyConnected,
    api_key_create,
    api_key_revoke,
    integration_connect,
    integration_disconnect,
)
from core.admin import TeamScopedAdmin


@admin.register(Team)
class TeamAdmin(TeamScopedAdmin):
    team_field = "pk"
    list_display = ["name", "id", "markup_percent", "fee", "notification_email", "created_at"]
    search_fields = ["name", "id", "notification_email"]
    readonly_fields = ["id", "created_at"]
    fields = ["id", "name", "tax_id", "markup_percent", "fee", "notification_email", "created_at"]

    def has_add_permission(self, request):
        # Teams are created by support (or `manage.py create_team`) with their wallet and keys.
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ["username", "email", "team", "is_staff", "is_superuser", "last_login"]
    list_filter = ["is_staff", "is_superuser", "team"]
    fieldsets = [*DjangoUserAdmin.fieldsets, ("Agency", {"fields": ["team"]})]


@admin.register(ApiKey)
class ApiKeyAdmin(TeamScopedAdmin):
    list_display = [
        "name",
        "display_prefix",
        "mode",
        "team",
        "status",
        "created_at",
        "last_used_at",
    ]
    list_filter = ["live_mode", "team"]
    search_fields = ["name", "display_prefix", "id"]
    readonly_fields = [
        "id",
        "display_prefix",
        "created_at",
        "created_by",
        "last_used_at",
        "revoked_at",
    ]
    actions = ["revoke"]

    @admin.display(description="Mode")
    def mode(self, obj):
        return "live" if obj.live_mode else "test"

    @admin.display(description="Status")
    def status(self, obj):
        return "active" if obj.is_active else "revoked"

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [*self.readonly_fields, "team", "live_mode"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return (
                ["team", "name", "live_mode"] if request.user.is_support else ["name", "live_mode"]
            )
        return [
            "id",
            "name",
            "team",
            "live_mode",
            "display_prefix",
            "created_at",
            "created_by",
            "last_used_at",
            "revoked_at",
        ]

    def save_model(self, request, obj, form, change):
        if change:
            obj.save(update_fields=["name"])
            return
        team = obj.team if request.user.is_support else request.user.team
        key, secret = api_key_create(
            team=team, live_mode=obj.live_mode, name=obj.name, created_by=request.user
        )
        obj.pk, obj.display_prefix, obj.team = key.pk, key.display_prefix, team
        messages.warning(
            request, f"New API key: {secret} — copy it now; it will not be shown again."
        )

    def has_delete_permission(self, request, obj=None):
        return False  # keys are revoked, never deleted, so their history stays readable

    @admin.action(description="Revoke selected API keys", permissions=["change"])
    def revoke(self, request, queryset):
        for key in queryset:
            api_key_revoke(api_key=key)
        self.message_user(request, f"Revoked {queryset.count()} key(s).", messages.SUCCESS)


@admin.register(Client)
class ClientAdmin(TeamScopedAdmin):
    list_display = ["full_name", "email", "phone_number", "team", "live_mode", "created_at"]
    list_filter = ["live_mode", "team"]
    search_fields = ["full_name", "email", "id"]
    readonly_fields = ["id", "created_at"]


class IntegrationConnectForm(forms.ModelForm):
    """Connecting asks for the token once; it is stored encrypted and never shown again."""

    access_token = forms.CharField(
        widget=forms.PasswordInput(render_value=False),
        help_text="The supplier's access token (Duffel: duffel_live_…).",
    )

    class Meta:
        model = Integration
        fields = ["team", "provider", "live_mode", "access_token"]


@admin.register(Integration)
class IntegrationAdmin(TeamScopedAdmin):
    list_display = [
        "id",
        "provider",
        "team",
        "live_mode",
        "status",
        "connected_at",
        "disconnected_at",
    ]
    list_filter = ["provider", "status", "live_mode", "team"]
    readonly = ["id", "team", "provider", "live_mode", "status", "connected_at", "disconnected_at"]
    actions = ["disconnect"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = IntegrationConnectForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            fields = ["team", "provider", "live_mode", "access_token"]
            return fields if request.user.is_support else fields[1:]
        return self.readonly

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.readonly

    def save_model(self, request, obj, form, change):
        if change:
            return  # an integration is replaced (disconnect, connect again), never edited
        team = obj.team if request.user.is_support else request.user.team
        try:
            created = integration_connect(
                team=team,
                live_mode=obj.live_mode,
                provider=obj.provider,
                access_token=form.cleaned_data["access_token"],
            )
        except IntegrationAlreadyConnected as exc:
            self.message_user(request, exc.message, messages.ERROR)
            raise PermissionDenied(exc.message) from None
        obj.pk, obj.team = created.pk, team

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Disconnect selected integrations", permissions=["change"])
    def disconnect(self, request, queryset):
        for integration in queryset:
            integration_disconnect(integration=integration)
        self.message_user(request, "Disconnected.", messages.SUCCESS)
