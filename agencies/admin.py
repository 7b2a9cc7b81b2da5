from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import PermissionDenied
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from agencies.models import ApiKey, Client, Integration, Team, User
from agencies.services import (
    IntegrationAlreadyConnected,
    api_key_create,
    api_key_revoke,
    integration_connect,
    integration_disconnect,
)
from core.admin import TeamScopedAdmin, live_mode_filter, money_cell, status_label
from core.forms import LocalizedDecimalField


class TeamForm(forms.ModelForm):
    """Pricing is typed the way the user writes numbers ("25,50" in Portuguese), strictly:
    anything that could be read two ways is an error (core.money.parse_localized_decimal)."""

    markup_percent = LocalizedDecimalField(
        label=capfirst(_("markup (%)")),
        min_value=Decimal("0"),
        max_value=Decimal("100"),
        help_text=_("Percentage added to the BRL base cost of every offer, e.g. 8,5."),
    )
    fee = LocalizedDecimalField(
        label=capfirst(_("fee (R$)")),
        min_value=Decimal("0"),
        max_value=Decimal("9999999999.99"),
        help_text=_("Fixed fee in BRL added to every offer, e.g. 25,50."),
    )

    class Meta:
        model = Team
        fields = ["name", "tax_id", "markup_percent", "fee", "notification_email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and "fee" in self.fields:
            self.initial["fee"] = self.instance.fee.amount


def digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


@admin.register(Team)
class TeamAdmin(TeamScopedAdmin):
    team_field = "pk"
    form = TeamForm
    list_display = ["name", "tax_id", "markup_display", "money_fee", "notification_email"]
    search_fields = ["name", "id", "tax_id", "notification_email"]
    readonly_fields = ["id", "created_at"]
    fields = ["id", "name", "tax_id", "markup_percent", "fee", "notification_email", "created_at"]

    @admin.display(description=_("markup"), ordering="markup_percent")
    def markup_display(self, obj):
        from django.utils.formats import number_format

        return f"{number_format(obj.markup_percent, decimal_pos=2)}\N{NO-BREAK SPACE}%"

    @admin.display(description=_("fee"), ordering="fee")
    def money_fee(self, obj):
        return money_cell(obj.fee.amount)

    def get_search_results(self, request, queryset, search_term):
        # A CNPJ is searched with or without its dots, slash and dash.
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        wanted = digits(search_term)
        if len(wanted) >= 4:
            matches = [t.pk for t in queryset.exclude(tax_id="") if wanted in digits(t.tax_id)]
            results = results | queryset.filter(pk__in=matches)
        return results, may_have_duplicates

    def has_add_permission(self, request):
        # Teams are created by support (or `manage.py create_team`) with their wallet and keys.
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ["username", "email", "team", "is_staff", "is_superuser", "last_login"]
    list_filter = ["is_staff", "is_superuser", "team"]
    search_fields = ["username", "email", "first_name", "last_name", "team__name"]
    fieldsets = [*DjangoUserAdmin.fieldsets, (_("Agency"), {"fields": ["team"]})]


@admin.register(ApiKey)
class ApiKeyAdmin(TeamScopedAdmin):
    list_display = ["name", "display_prefix", "team", "status", "created_at", "last_used_at"]
    list_filter = [live_mode_filter(), "team"]
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

    @admin.display(description=_("status"), ordering="revoked_at")
    def status(self, obj):
        if obj.is_active:
            return status_label("active", _("Active"))
        return status_label("revoked", _("Revoked"))

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
            request,
            _("New API key: %(secret)s — copy it now; it will not be shown again.")
            % {"secret": secret},
        )

    def has_delete_permission(self, request, obj=None):
        return False  # keys are revoked, never deleted, so their history stays readable

    @admin.action(description=_("Revoke selected API keys"), permissions=["change"])
    def revoke(self, request, queryset):
        for key in queryset:
            api_key_revoke(api_key=key)
        count = queryset.count()
        self.message_user(
            request,
            ngettext("Revoked %(count)d key.", "Revoked %(count)d keys.", count) % {"count": count},
            messages.SUCCESS,
        )


@admin.register(Client)
class ClientAdmin(TeamScopedAdmin):
    list_display = ["full_name", "email", "phone_number", "team", "created_at"]
    list_filter = [live_mode_filter(), "team"]
    search_fields = ["full_name", "email", "phone_number", "id"]
    readonly_fields = ["id", "created_at"]


class IntegrationConnectForm(forms.ModelForm):
    """Connecting asks for the token once; it is stored encrypted and never shown again."""

    access_token = forms.CharField(
        label=capfirst(_("access token")),
        widget=forms.PasswordInput(render_value=False),
        help_text=_("The supplier's access token (Duffel: duffel_live_…)."),
    )

    class Meta:
        model = Integration
        fields = ["team", "provider", "live_mode", "access_token"]


@admin.register(Integration)
class IntegrationAdmin(TeamScopedAdmin):
    list_display = ["provider", "team", "status_display", "connected_at", "disconnected_at"]
    list_filter = [live_mode_filter(), "provider", "status", "team"]
    search_fields = ["id", "team__name"]
    readonly = ["id", "team", "provider", "live_mode", "status", "connected_at", "disconnected_at"]
    actions = ["disconnect"]

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, obj):
        return status_label(obj.status, obj.get_status_display())

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
            self.message_user(request, gettext(exc.message), messages.ERROR)
            raise PermissionDenied(exc.message) from None
        obj.pk, obj.team = created.pk, team

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Disconnect selected integrations"), permissions=["change"])
    def disconnect(self, request, queryset):
        for integration in queryset:
            integration_disconnect(integration=integration)
        self.message_user(request, _("Disconnected."), messages.SUCCESS)
