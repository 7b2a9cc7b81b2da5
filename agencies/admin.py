"""The agencies' pages in the panel: teams (a change of pricing is confirmed first), users and
their roles, API keys and the API request log, clients, supplier integrations, invitations, and
the page where an invitee accepts one."""

import json
import re
from decimal import Decimal

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth import login
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import SetPasswordForm
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from agencies.models import (
    SUPPORT_GROUP_NAME,
    ApiKey,
    ApiRequest,
    Client,
    Integration,
    Invitation,
    Member,
    Team,
    User,
)
from agencies.payloads import BRAZIL, postal_code_display
from agencies.pricing import (
    FX_MARGIN_MAX_PERCENT,
    fx_quote,
    price_offer,
    team_fx_margin_percent,
)
from agencies.selectors import client_search
from agencies.services import (
    CLIENT_FIELDS,
    IntegrationAlreadyConnected,
    InvitationAlreadyMember,
    InvitationInvalid,
    InvitationUserExists,
    api_key_create,
    api_key_revoke,
    integration_connect,
    integration_disconnect,
    invitation_accept,
    invitation_create,
    invitation_from_token,
    invitation_usable,
    member_active_set,
    member_role_change,
    team_api_version_upgrade,
)
from api.fields import PHONE_PATTERN
from api.key_permissions import PERMISSIONS
from api.versions import LATEST_VERSION, changes_since
from core.addresses import cep_compact, state_compact
from core.audit import audit_action, entries_for
from core.exceptions import ApplicationError
from core.metadata import (
    MAX_METADATA_KEY_LENGTH,
    MAX_METADATA_KEYS,
    MAX_METADATA_VALUE_LENGTH,
    metadata_problem,
)
from core.money import money_display
from core.tax_ids import tax_id_compact, tax_id_display
from panel.admin import (
    AuditedAdminMixin,
    ReadOnlyAdmin,
    TeamScopedAdmin,
    is_support,
    live_mode_filter,
    money_cell,
    status_label,
    user_team_id,
)
from panel.forms import LocalizedDecimalField
from panel.roles import CHANGE, ROLE_AREAS, Area, TeamRole, role_label

PRICING_FIELDS = ("markup_percent", "fee", "fx_margin_percent")
EXAMPLE_BASE_COST = Decimal("1000.00")  # the confirmation page prices an offer of this cost


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
    fx_margin_percent = LocalizedDecimalField(
        label=capfirst(_("FX margin (%)")),
        required=False,
        min_value=Decimal("0"),
        max_value=FX_MARGIN_MAX_PERCENT,
        help_text=_(
            "The cost of foreign exchange (bank spread, IOF) added to the reference exchange "
            "rate of every fare in another currency, e.g. 2,5. Empty: the service's default "
            "(%(default)s)."
        ),
    )

    class Meta:
        model = Team
        fields = [
            "name",
            "tax_id",
            "markup_percent",
            "fee",
            "fx_margin_percent",
            "municipal_service_code",
            "municipal_service_name",
            "notification_email",
            "language",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and "fee" in self.fields:
            self.initial["fee"] = self.instance.fee.amount
        if "fx_margin_percent" in self.fields:
            field = self.fields["fx_margin_percent"]
            field.help_text = field.help_text % {"default": _percent(settings.FX_MARGIN_PERCENT)}
        if "language" in self.fields:  # a form posted without it keeps the team's language
            self.fields["language"].required = False

    def clean_language(self):
        return self.cleaned_data.get("language") or self.instance.language or "pt-br"


def digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


@admin.register(Team)
class TeamAdmin(TeamScopedAdmin):
    team_field = "pk"
    change_form_template = "admin/agencies/team/change_form.html"
    panel_area = Area.SETTINGS
    form = TeamForm
    list_display = ["name", "tax_id", "markup_display", "money_fee", "notification_email"]
    search_fields = ["name", "id", "tax_id", "notification_email"]
    readonly_fields = ["id", "api_version_display", "created_at"]
    fields = [
        "id",
        "name",
        "tax_id",
        "markup_percent",
        "fee",
        "fx_margin_percent",
        "municipal_service_code",
        "municipal_service_name",
        "notification_email",
        "language",
        "api_version_display",
        "created_at",
    ]

    @admin.display(description=_("markup"), ordering="markup_percent")
    def markup_display(self, obj):

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

    def get_list_display(self, request):
        display = list(super().get_list_display(request))
        return [*display, "overview_link"] if is_support(request) else display

    @admin.display(description=_("overview"))
    def overview_link(self, obj):
        # The dashboard's page (dashboard/sites.py), found by its name.
        url = reverse("admin:agencies_team_overview", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("Overview"))

    @admin.display(description=_("API version"))
    def api_version_display(self, obj):
        if obj.api_version == LATEST_VERSION:
            return format_html(
                '<span id="api-version">{}</span> ({})', obj.api_version, _("the latest")
            )
        return format_html('<span id="api-version">{}</span>', obj.api_version)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """A later API version is offered, under the form, to whom may change the team."""
        team = self.get_object(request, unquote(object_id))
        extra = dict(extra_context or {})
        if (
            team is not None
            and team.api_version != LATEST_VERSION
            and self.has_change_permission(request, team)
        ):
            extra["api_version_upgrade_url"] = reverse(
                "admin:agencies_team_api_version", args=[team.pk]
            )
            extra["latest_api_version"] = LATEST_VERSION
        return super().change_view(request, object_id, form_url, extra)

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/api-version/",
                self.admin_site.admin_view(self.api_version_view),
                name="{}_{}_api_version".format(*info),
            ),
            *super().get_urls(),
        ]

    def api_version_view(self, request, object_id):
        """Upgrade the team's API version: a page says what changes, its POST makes it and
        records it in the audit log."""
        team = self.get_object(request, unquote(object_id))  # team-scoped
        if team is None:
            raise Http404
        if not self.has_change_permission(request, team):
            raise PermissionDenied
        change_url = reverse("admin:agencies_team_change", args=[team.pk])
        if request.method == "POST":
            version = request.POST.get("version", "")
            before = team.api_version
            try:
                audit_action(
                    actor=request.user,
                    obj=team,
                    action="api_version_upgrade",
                    summary=gettext("API version %(old)s → %(new)s")
                    % {"old": before, "new": version},
                    run=lambda t: team_api_version_upgrade(team=t, version=version),
                )
            except ApplicationError:
                self.message_user(
                    request,
                    gettext("The team is already on this API version or a later one."),
                    messages.ERROR,
                )
                return redirect(change_url)
            self.message_user(
                request,
                gettext("The team's API version is now %(version)s.") % {"version": version},
                messages.SUCCESS,
            )
            return redirect(change_url)
        if team.api_version == LATEST_VERSION:
            return redirect(change_url)  # nothing to upgrade to: its page says it is the latest
        context = {
            **self.admin_site.each_context(request),
            "title": _("Upgrade the API version of %(team)s?") % {"team": team.name},
            "subtitle": None,
            "opts": self.opts,
            "original": team,
            "current": team.api_version,
            "latest": LATEST_VERSION,
            "changes": changes_since(team.api_version),
            "endpoints": team.webhooks.order_by("created_at"),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/agencies/team/confirm_api_version.html", context)

    def has_add_permission(self, request):
        # Teams are created by support (or `manage.py create_team`) with their wallet and keys.
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """A change of markup, fee or FX margin reprices every offer: it is confirmed on a page
        that shows the old and new pricing of example offers, then saved by the same form
        POST."""
        if request.method == "POST" and object_id and request.POST.get("_pricing") != "confirmed":
            confirmation = self._pricing_confirmation(request, object_id)
            if confirmation is not None:
                return confirmation
        return super().changeform_view(request, object_id, form_url, extra_context)

    def _pricing_confirmation(self, request, object_id):
        team = self.get_object(request, unquote(object_id))
        if team is None or not self.has_change_permission(request, team):
            return None  # the admin's own view answers (not found / forbidden)
        saved = Team.objects.get(pk=team.pk)
        form = self.get_form(request, team, change=True)(request.POST, request.FILES, instance=team)
        if not form.is_valid() or not _pricing_changed(saved, form.instance):
            return None  # errors are shown by the admin's form; other changes need no question
        new = form.instance
        context = {
            **self.admin_site.each_context(request),
            "title": _("Change the pricing of %(team)s?") % {"team": saved.name},
            "subtitle": None,
            "opts": self.opts,
            "original": saved,
            "old": _pricing_rows(saved),
            "new": _pricing_rows(new),
            "warnings": _pricing_warnings(saved, new),
            "example_cost": money_display(EXAMPLE_BASE_COST),
            "posted": [(k, v) for k, values in request.POST.lists() for v in values],
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/agencies/team/confirm_pricing.html", context)

    def save_model(self, request, obj, form, change):
        saved = Team.objects.get(pk=obj.pk) if change else None
        if saved is None or not _pricing_changed(saved, obj):
            return super().save_model(request, obj, form, change)
        old, new = _pricing_rows(saved), _pricing_rows(obj)
        parts = []
        if saved.markup_percent != obj.markup_percent:
            parts.append(
                _("markup %(old)s → %(new)s") % {"old": old["markup"], "new": new["markup"]}
            )
        if saved.fee != obj.fee:
            parts.append(_("fee %(old)s → %(new)s") % {"old": old["fee"], "new": new["fee"]})
        if saved.fx_margin_percent != obj.fx_margin_percent:
            parts.append(
                _("FX margin %(old)s → %(new)s")
                % {"old": old["fx_margin"], "new": new["fx_margin"]}
            )
        summary = ", ".join(str(part) for part in parts)
        audit_action(
            actor=request.user,
            obj=obj,
            action="pricing_change",
            summary=summary,
            run=lambda _before: obj.save(),
        )


def _pricing_changed(saved: Team, new: Team) -> bool:
    return (
        saved.markup_percent != new.markup_percent
        or saved.fee != new.fee
        or saved.fx_margin_percent != new.fx_margin_percent
    )


# A new value this many times the current one (or as small as its fraction) asks for a second
# look on the confirmation page; so does one above these, whatever the current value.
FAR_FROM_CURRENT = Decimal("5")
HIGH_MARKUP_PERCENT = Decimal("30")
HIGH_FEE = Decimal("300")


def _pricing_warnings(saved: Team, new: Team) -> list[str]:
    """Sentences for a change far from the current pricing (a fee typed ×10, a markup of 85 %
    meant as 8,5): the confirmation page shows them above its button."""
    warnings = []
    old_fee, new_fee = saved.fee.amount, new.fee.amount  # type: ignore[attr-defined]  # Money
    pairs = [
        (_("markup"), saved.markup_percent, new.markup_percent, _percent),
        (_("fee"), old_fee, new_fee, money_display),
    ]
    for name, before, after, shown in pairs:
        if before == after:
            continue
        far = (
            before > 0
            and after > 0
            and (after >= before * FAR_FROM_CURRENT or after * FAR_FROM_CURRENT <= before)
        )
        if far:
            warnings.append(
                _(
                    "The %(name)s goes from %(old)s to %(new)s (%(times)s × the current one): "
                    "check it is not a typo."
                )
                % {
                    "name": name,
                    "old": shown(before),
                    "new": shown(after),
                    "times": number_format(after / before, decimal_pos=1),
                }
            )
    if new.markup_percent != saved.markup_percent and new.markup_percent >= HIGH_MARKUP_PERCENT:
        warnings.append(
            _("A markup of %(markup)s is unusually high.")
            % {"markup": _percent(new.markup_percent)}
        )
    if new_fee != old_fee and new_fee >= HIGH_FEE:
        warnings.append(
            _("A fee of %(fee)s per offer is unusually high.") % {"fee": money_display(new_fee)}
        )
    return [str(w) for w in warnings]


def _percent(value: Decimal) -> str:
    return f"{number_format(value, decimal_pos=2)}\N{NO-BREAK SPACE}%"


def _pricing_rows(team: Team) -> dict:
    fee = team.fee.amount  # type: ignore[attr-defined]  # MoneyField: Money, not Decimal
    price = price_offer(
        total_amount=EXAMPLE_BASE_COST,
        total_currency="BRL",
        exchange_rate=Decimal("1"),
        markup_percent=team.markup_percent,
        fee=fee,
    )
    # A fare in another currency worth EXAMPLE_BASE_COST at the reference rate (1 unit = R$ 1):
    # the FX margin is in its cost.
    foreign = price_offer(
        total_amount=EXAMPLE_BASE_COST,
        total_currency="XXX",
        fx=fx_quote(
            currency="XXX",
            reference_rate=Decimal("1"),
            margin_percent=team_fx_margin_percent(team),
        ),
        markup_percent=team.markup_percent,
        fee=fee,
    )
    margin = _percent(team_fx_margin_percent(team))
    return {
        "markup": _percent(team.markup_percent),
        "fee": money_display(fee),
        "fx_margin": margin
        if team.fx_margin_percent is not None
        else _("%(margin)s (the default)") % {"margin": margin},
        "markup_amount": money_display(price.markup_amount),
        "client_amount": money_display(price.client_amount),
        "foreign_client_amount": money_display(foreign.client_amount),
    }


class RoleFilter(admin.SimpleListFilter):
    title = _("role")
    parameter_name = "role"

    def lookups(self, request, model_admin):
        return User.Role.choices

    def queryset(self, request, queryset):
        support = Q(groups__name=SUPPORT_GROUP_NAME, team__isnull=True, is_staff=True)
        agency = Q(team__isnull=False, is_staff=True, is_superuser=False)
        value = self.value()
        if value == User.Role.SUPERUSER:
            return queryset.filter(is_superuser=True, is_active=True)
        if value == User.Role.SUPPORT:
            return queryset.filter(support, is_superuser=False, is_active=True).distinct()
        if value == User.Role.AGENCY:
            return queryset.filter(agency, is_active=True)
        if value == User.Role.NONE:
            return queryset.exclude(
                Q(is_active=True) & (Q(is_superuser=True) | support | agency)
            ).distinct()
        return queryset


@admin.register(User)
class UserAdmin(AuditedAdminMixin, DjangoUserAdmin):
    """Support sees who has which role (the "role" column and filter). Only superusers grant
    superuser status or single permissions; support grants roles through the groups."""

    list_display = ["username", "email", "role", "team", "is_active", "last_login"]
    list_filter = [RoleFilter, "is_active", "team"]
    search_fields = ["username", "email", "first_name", "last_name", "team__name"]
    fieldsets = [
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Agency"), {"fields": ["team", "team_role"]}),
    ]

    @admin.display(description=_("role"))
    def role(self, user):
        return User.Role(user.panel_role).label

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("groups")

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            readonly += ["is_superuser", "user_permissions"]
        return readonly

    def has_module_permission(self, request):
        return is_support(request) and super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return is_support(request) and super().has_view_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False  # support does not edit superusers
        return is_support(request) and super().has_change_permission(request, obj)

    def has_add_permission(self, request):
        return is_support(request) and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser and super().has_delete_permission(request, obj)


# --- A team's members: the owner sets their roles (docs/roles.md) ----------------------------


def _areas_for_people(role: str) -> str:
    """What a role lets its holder do, in a sentence ("changes: Bookings and clients")."""
    areas = ROLE_AREAS.get(role, {})
    changes = [str(Area(a).label) for a, level in areas.items() if level == CHANGE]
    views = [str(Area(a).label) for a, level in areas.items() if level != CHANGE]
    parts = []
    if changes:
        parts.append(gettext("works in: %(areas)s") % {"areas": "; ".join(changes)})
    if views:
        parts.append(gettext("reads: %(areas)s") % {"areas": "; ".join(views)})
    return " · ".join(parts)


def _role_action(role: TeamRole, description):
    """A list action that gives the selected members `role`, confirmed and audited."""

    def action(self, request, queryset):
        return self.change_role(request, queryset, role)

    action.__name__ = f"make_{role.value}"
    return admin.action(description=description, permissions=["change"])(action)


@admin.register(Member)
class MemberAdmin(TeamScopedAdmin):
    """The team's people and their roles. Members join by invitation; the owner changes their
    roles and deactivates those who left (confirmed, audited), never below one active owner."""

    panel_area = Area.SETTINGS
    list_display = ["username", "full_name", "role_display", "is_active", "last_login", "team"]
    list_filter = ["team_role", "is_active", "team"]
    search_fields = ["username", "email", "first_name", "last_name"]
    fields = ["username", "full_name", "team", "role_display", "role_reach", "is_active"]
    readonly_fields = ["username", "full_name", "team", "role_display", "role_reach", "is_active"]
    ordering = ["username"]
    actions = [
        "make_owner",
        "make_finance",
        "make_agent",
        "make_developer",
        "make_viewer",
        "deactivate",
        "reactivate",
    ]

    make_owner = _role_action(TeamRole.OWNER, _("Change role to Owner"))
    make_finance = _role_action(TeamRole.FINANCE, _("Change role to Finance"))
    make_agent = _role_action(TeamRole.AGENT, _("Change role to Agent"))
    make_developer = _role_action(TeamRole.DEVELOPER, _("Change role to Developer"))
    make_viewer = _role_action(TeamRole.VIEWER, _("Change role to Viewer (read only)"))

    def get_queryset(self, request):
        return super().get_queryset(request).filter(team__isnull=False).select_related("team")

    @admin.display(description=_("name"), ordering="first_name")
    def full_name(self, obj):
        return obj.get_full_name() or "—"

    @admin.display(description=_("role in the team"), ordering="team_role")
    def role_display(self, obj):
        return role_label(obj.team_role)

    @admin.display(description=_("what the role allows"))
    def role_reach(self, obj):
        return _areas_for_people(obj.team_role)

    def has_add_permission(self, request):
        return False  # members join by invitation

    def has_delete_permission(self, request, obj=None):
        return False  # deactivated, so that their records keep their name

    def audit_entries(self, obj):
        return entries_for(User(pk=obj.pk))  # the entries are the user's

    def _members(self, queryset):
        # The users themselves, so that each entry is in the user's history.
        return User.objects.filter(pk__in=queryset.values("pk")).order_by("username")

    def change_role(self, request, queryset, role: TeamRole):
        def describe(member):
            if member.team_role == role:
                return gettext("Already %(role)s: nothing changes.") % {"role": role.label}
            return gettext("%(old)s → %(new)s: %(reach)s.") % {
                "old": role_label(member.team_role),
                "new": role.label,
                "reach": _areas_for_people(role),
            }

        return self.confirm_then_run(
            request,
            self._members(queryset),
            action="member_role_change",
            title=_("Change members' role"),
            question=_("Give these members the role %(role)s?") % {"role": role.label},
            describe=describe,
            run=lambda member: member_role_change(member=member, role=role),
            done_message=lambda member: (
                gettext("%(member)s is now %(role)s.")
                % {"member": member.get_full_name() or member, "role": role.label}
            ),
        )

    @admin.action(description=_("Deactivate selected members"), permissions=["change"])
    def deactivate(self, request, queryset):
        return self._set_active(request, queryset, active=False)

    @admin.action(description=_("Reactivate selected members"), permissions=["change"])
    def reactivate(self, request, queryset):
        return self._set_active(request, queryset, active=True)

    def _set_active(self, request, queryset, *, active: bool):
        def describe(member):
            if member.is_active == active:
                return gettext("Already so: nothing changes.")
            if active:
                return gettext("Can log into the panel again, as %(role)s.") % {
                    "role": role_label(member.team_role)
                }
            return gettext("Can no longer log into the panel; what they did keeps their name.")

        return self.confirm_then_run(
            request,
            self._members(queryset),
            action="member_reactivate" if active else "member_deactivate",
            title=_("Reactivate members") if active else _("Deactivate members"),
            question=_("Reactivate these members?") if active else _("Deactivate these members?"),
            describe=describe,
            run=lambda member: member_active_set(member=member, active=active),
            done_message=_("Reactivated %(object)s.") if active else _("Deactivated %(object)s."),
        )


# What each permission of a restricted key lets it do (api/key_permissions.py), as the add
# form's checkboxes say it.
PERMISSION_LABELS = {
    "flights:read": _("Search flights and read offers"),
    "bookings:read": _("Read bookings"),
    "bookings:write": _("Create, confirm, change and cancel bookings"),
    "wallet:read": _("Read the balance, transactions and recharges"),
    "wallet:write": _("Create and cancel recharges, request withdrawals"),
    "webhooks:read": _("Read webhook endpoints"),
    "webhooks:write": _("Register, change and delete webhook endpoints"),
    "events:read": _("Read events"),
    "clients:read": _("Read clients"),
    "clients:write": _("Create and change clients"),
    "reports:read": _("Read reports (sales, NFS-e)"),
}


class PermissionChoiceField(forms.MultipleChoiceField):
    def __init__(self, **kwargs):
        choices = [
            (name, format_html("<code>{}</code> {}", name, PERMISSION_LABELS[name]))
            for name in PERMISSIONS
        ]
        super().__init__(choices=choices, widget=forms.CheckboxSelectMultiple, **kwargs)


class ApiKeyForm(forms.ModelForm):
    """A new key: full access (the default, what every key had before) or only the
    permissions checked (docs/decisions.md, "Restricted API keys")."""

    FULL, RESTRICTED = "full", "restricted"
    access = forms.ChoiceField(
        label=_("Access"),
        choices=[
            (FULL, _("Full access")),
            (RESTRICTED, _("Restricted: only the permissions checked below")),
        ],
        initial=FULL,
        required=False,  # a form posted without it (a script's) keeps the old full access
        widget=forms.RadioSelect,
    )
    permissions = PermissionChoiceField(
        label=_("Permissions"),
        required=False,
        help_text=_("A restricted key is refused (403) outside the permissions checked."),
    )

    class Meta:
        model = ApiKey
        fields = ["team", "name", "live_mode", "permissions"]

    def clean(self):
        cleaned = super().clean()
        chosen = cleaned.get("permissions") or []
        if "permissions" in self.errors:
            return cleaned  # an unknown permission: that error alone
        if cleaned.get("access") == self.RESTRICTED:
            if not chosen:
                self.add_error("permissions", _("Check at least one permission."))
        elif chosen:
            self.add_error(
                "access", _("Choose “Restricted” to limit the key to the permissions checked.")
            )
        else:
            cleaned["permissions"] = []
        return cleaned


@admin.register(ApiKey)
class ApiKeyAdmin(TeamScopedAdmin):
    panel_area = Area.DEVELOPERS
    form = ApiKeyForm
    list_display = [
        "name",
        "display_prefix",
        "team",
        "status",
        "permissions_display",
        "created_at",
        "last_used_at",
    ]
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

    @admin.display(description=_("permissions"))
    def permissions_display(self, obj):
        if obj.has_full_access:
            return _("Full access")
        return ", ".join(obj.permissions)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [*self.readonly_fields, "team", "live_mode", "permissions_display", "requests_link"]

    @admin.display(description=_("requests"))
    def requests_link(self, obj):
        return format_html(
            '<a href="{}">{}</a>',
            api_request_log_url(api_key=obj.pk),
            _("The requests made with this key"),
        )

    def get_fields(self, request, obj=None):
        if obj is None:
            fields = ["name", "live_mode", "access", "permissions"]
            return ["team", *fields] if is_support(request) else fields
        return [
            "id",
            "name",
            "team",
            "live_mode",
            "permissions_display",
            "display_prefix",
            "created_at",
            "created_by",
            "last_used_at",
            "requests_link",
            "revoked_at",
        ]

    def save_model(self, request, obj, form, change):
        if change:
            obj.save(update_fields=["name"])
            return
        team = obj.team if is_support(request) else request.user.team
        key, secret = api_key_create(
            team=team,
            live_mode=obj.live_mode,
            name=obj.name,
            created_by=request.user,
            permissions=obj.permissions,
        )
        obj.pk, obj.display_prefix, obj.team = key.pk, key.display_prefix, team
        # Only on this object, for this response: never in the session, messages or a log.
        obj.plaintext_secret = secret

    def response_add(self, request, obj, post_url_continue=None):
        """The new key is shown once, in the answer to the POST that created it."""
        secret = getattr(obj, "plaintext_secret", None)
        if secret is None:
            return super().response_add(request, obj, post_url_continue)
        context = {
            **self.admin_site.each_context(request),
            "title": _("New API key"),
            "subtitle": None,
            "opts": self.opts,
            "key": obj,
            "secret": secret,
        }
        request.current_app = self.admin_site.name
        response = TemplateResponse(request, "admin/agencies/apikey/created.html", context)
        add_never_cache_headers(response)  # no copy in a browser or proxy cache
        return response

    def has_delete_permission(self, request, obj=None):
        return False  # keys are revoked, never deleted, so their history stays readable

    @admin.action(description=_("Revoke selected API keys"), permissions=["change"])
    def revoke(self, request, queryset):
        def describe(key):
            if not key.is_active:
                return _("Already revoked: nothing changes.")
            return _(
                "Requests with %(prefix)s… are refused from now on (401). This cannot be undone."
            ) % {"prefix": key.display_prefix}

        return self.confirm_then_run(
            request,
            queryset,
            action="api_key_revoke",
            title=_("Revoke API keys"),
            question=_("Revoke these API keys?"),
            describe=describe,
            run=lambda key: api_key_revoke(api_key=key),
            done_message=_("Revoked %(object)s."),
        )


class TaxIdFormField(forms.CharField):
    """A CPF or CNPJ typed with or without its punctuation, stored as its digits
    (core.tax_ids) and shown formatted."""

    def prepare_value(self, value):
        return tax_id_display(value) if isinstance(value, str) and value.isdigit() else value

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return ""
        digits = tax_id_compact(value)
        if digits is None:
            raise forms.ValidationError(
                _("Not a valid CPF or CNPJ: check the digits (11 for a CPF, 14 for a CNPJ)."),
                code="invalid",
            )
        return digits


PHONE_SEPARATORS = re.compile(r"[\s().-]")
PHONE = re.compile(PHONE_PATTERN)


class MetadataFormField(forms.JSONField):
    """The client's metadata as a JSON object (shown indented); the API's rule (core.metadata)."""

    def prepare_value(self, value):
        if value is None or value == {}:
            return ""  # none yet: an empty box, not "null" or "{}"
        if isinstance(value, dict):
            return json.dumps(value, ensure_ascii=False, indent=2)
        return super().prepare_value(value)

    def clean(self, value):
        value = super().clean(value)
        if value in (None, ""):
            return {}
        problem = metadata_problem(value)
        if problem is not None:
            raise forms.ValidationError(
                _(
                    "Write an object of at most %(keys)s keys of 1 to %(key_length)s characters, "
                    'each value text of at most %(value_length)s characters: {"crm_id": "C-1029"}.'
                )
                % {
                    "keys": MAX_METADATA_KEYS,
                    "key_length": MAX_METADATA_KEY_LENGTH,
                    "value_length": MAX_METADATA_VALUE_LENGTH,
                },
                code="invalid",
            )
        return value


class ClientForm(forms.ModelForm):
    """An agency user's form has no team field, so Django's uniqueness check would skip the
    (team, mode, e-mail) constraint and the database would answer with an error page. The tax
    id, CEP, UF and metadata follow the API's rules (docs/clients.md)."""

    tax_id = TaxIdFormField(
        label=capfirst(_("CPF or CNPJ")),
        required=False,
        max_length=18,
        help_text=_("With or without punctuation: 390.533.447-05 or 11.222.333/0001-81."),
    )
    metadata = MetadataFormField(
        label=capfirst(_("metadata")),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_('The agency\'s own data, as JSON: {"crm_id": "C-1029"}.'),
    )

    class Meta:
        model = Client
        fields = ["team", "live_mode", *CLIENT_FIELDS]
        help_texts = {
            "phone_number": _("With the country code: +55 11 98765-4321."),
            "postal_code": _("In Brazil, the CEP: 01310-100."),
            "state": _("In Brazil, the UF: SP, RJ."),
            "country": _("Two letters (ISO 3166-1): BR, PT, US."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "country" in self.fields:
            self.fields["country"].required = False  # Brazil when left empty
        if "postal_code" in self.fields and self.instance.pk:
            self.initial["postal_code"] = postal_code_display(self.instance)

    def clean_email(self):
        return self.cleaned_data["email"].lower()

    def clean_phone_number(self):
        phone = PHONE_SEPARATORS.sub("", self.cleaned_data.get("phone_number") or "")
        if phone and not PHONE.fullmatch(phone):
            raise forms.ValidationError(
                _("Use the country code and the number: +55 11 98765-4321."), code="invalid"
            )
        return phone

    def clean_country(self):
        country = (self.cleaned_data.get("country") or BRAZIL).strip().upper()
        if not re.fullmatch(r"[A-Z]{2}", country):
            raise forms.ValidationError(_("Two letters (ISO 3166-1): BR, PT, US."), code="invalid")
        return country

    def clean(self):
        cleaned = super().clean()
        email, live_mode = cleaned.get("email"), cleaned.get("live_mode")
        team_id = cleaned["team"].pk if cleaned.get("team") else self.instance.team_id
        if email and team_id:
            taken = Client.objects.filter(team_id=team_id, live_mode=live_mode, email=email)
            if taken.exclude(pk=self.instance.pk).exists():
                self.add_error("email", _("A client with this e-mail already exists."))
        if cleaned.get("country") == BRAZIL:
            self._check_brazilian_address(cleaned)
        return cleaned

    def _check_brazilian_address(self, cleaned: dict) -> None:
        postal_code = (cleaned.get("postal_code") or "").strip()
        if postal_code:
            cep = cep_compact(postal_code)
            if cep is None:
                self.add_error("postal_code", _("Not a CEP: 8 digits, e.g. 01310-100."))
            else:
                cleaned["postal_code"] = cep
        state = (cleaned.get("state") or "").strip()
        if state:
            uf = state_compact(state)
            if uf is None:
                self.add_error("state", _("Not a Brazilian state: a UF such as SP or RJ."))
            else:
                cleaned["state"] = uf


@admin.register(Client)
class ClientAdmin(TeamScopedAdmin):
    panel_area = Area.BOOKINGS
    form = ClientForm
    list_display = ["full_name", "email", "tax_id_display", "phone_number", "team", "created_at"]
    list_filter = [live_mode_filter(), "team"]
    search_fields = ["full_name", "email", "phone_number", "id"]
    search_help_text = _(
        "Name (with or without accents), e-mail, CPF or CNPJ (with or without punctuation), "
        "phone or id."
    )
    readonly_fields = ["id", "made_from_booking", "created_at"]
    fieldsets = [
        (
            None,
            {"fields": ["id", "team", "live_mode", "full_name", "email", "phone_number", "tax_id"]},
        ),
        (
            _("Address"),
            {
                "fields": [
                    "postal_code",
                    "street",
                    "street_number",
                    "complement",
                    "district",
                    "city",
                    "state",
                    "country",
                ]
            },
        ),
        (_("Metadata"), {"fields": ["metadata", "made_from_booking", "created_at"]}),
    ]

    @admin.display(description=_("CPF or CNPJ"), ordering="tax_id")
    def tax_id_display(self, obj):
        return tax_id_display(obj.tax_id)

    def get_fieldsets(self, request, obj=None):
        if is_support(request):
            return self.fieldsets
        # An agency user's clients are their team's: no team field (TeamScopedAdmin).
        return [
            (name, {**options, "fields": [f for f in options["fields"] if f != "team"]})
            for name, options in self.fieldsets
        ]

    def get_search_results(self, request, queryset, search_term):
        # Names without their accents (search_name), and a CPF or CNPJ with or without its
        # dots, slash and dash: the API's search (agencies.selectors.client_search).
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if search_term.strip():
            results = results | queryset.filter(client_search(search_term))
        return results, may_have_duplicates

    def get_form(self, request, obj=None, change=False, **kwargs):
        form_class = super().get_form(request, obj, change, **kwargs)
        team_id = None if is_support(request) else request.user.team_id

        class ScopedClientForm(form_class):
            def __init__(self, *args, **kw):
                super().__init__(*args, **kw)
                if team_id is not None and self.instance.team_id is None:
                    self.instance.team_id = team_id  # the team the uniqueness check uses

        return ScopedClientForm


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
    panel_area = Area.SETTINGS
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
            return fields if is_support(request) else fields[1:]
        return self.readonly

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.readonly

    def save_model(self, request, obj, form, change):
        if change:
            return  # an integration is replaced (disconnect, connect again), never edited
        team = obj.team if is_support(request) else request.user.team
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
        def describe(integration):
            if integration.status == Integration.Status.DISCONNECTED:
                return _("Already disconnected: nothing changes.")
            mode = _("live") if integration.live_mode else _("test")
            return _(
                "The stored %(provider)s token is no longer used: %(mode)s searches and bookings "
                "go through the built-in supplier until you connect again."
            ) % {"provider": integration.get_provider_display(), "mode": mode}

        return self.confirm_then_run(
            request,
            queryset,
            action="integration_disconnect",
            title=_("Disconnect integrations"),
            question=_("Disconnect these integrations?"),
            describe=describe,
            run=lambda integration: integration_disconnect(integration=integration),
            done_message=_("Disconnected %(object)s."),
        )


class InvitationForm(forms.ModelForm):
    """The same answer for every address, whether it has a panel user elsewhere or not
    (`invitation_create`); only a member of the very team invited is a form error."""

    inviter_team_id: int | None = None  # set per request by InvitationAdmin.get_form

    class Meta:
        model = Invitation
        fields = ["team", "email", "role"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "role" in self.fields:  # a form posted without it invites an agent, the default
            self.fields["role"].required = False

    def clean_role(self):
        return self.cleaned_data.get("role") or TeamRole.AGENT

    def clean(self):
        cleaned = super().clean()
        email, team = cleaned.get("email"), cleaned.get("team")
        team_id = self.inviter_team_id or (team.pk if team else None)
        if email and team_id and User.objects.filter(username__iexact=email, team_id=team_id):
            self.add_error("email", _("This person is already a member of this team"))
        return cleaned


@admin.register(Invitation)
class InvitationAdmin(TeamScopedAdmin):
    """Agency users invite colleagues of their team by e-mail; the invitee chooses their own
    password through the link, which expires and works once."""

    panel_area = Area.SETTINGS
    form = InvitationForm
    list_display = [
        "email",
        "team",
        "role",
        "status_display",
        "invited_by",
        "created_at",
        "expires_at",
    ]
    list_filter = ["team"]
    search_fields = ["email"]

    @admin.display(description=_("status"))
    def status_display(self, obj):
        return {"pending": _("pending"), "accepted": _("accepted"), "expired": _("expired")}[
            obj.status
        ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.inviter_team_id = None if is_support(request) else request.user.team_id
        return form

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["team", "email", "role"] if is_support(request) else ["email", "role"]
        return ["email", "team", "role", "invited_by", "created_at", "expires_at", "accepted_at"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.get_fields(request, obj)

    def has_change_permission(self, request, obj=None):
        return False if obj is not None else super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        # Withdrawing a pending invitation kills its link; a used one stays as a record.
        if obj is not None and obj.status != "pending":
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        team = obj.team if is_support(request) else request.user.team
        try:
            created = invitation_create(
                team=team, email=obj.email, invited_by=request.user, role=obj.role
            )
        except InvitationAlreadyMember as exc:  # the form checked; a race got past it
            self.message_user(request, exc.message, messages.ERROR)
            raise PermissionDenied(exc.message) from None
        obj.pk, obj.team, obj.expires_at = created.pk, team, created.expires_at


# --- Accepting an invitation --------------------------------------------------------------------
# A panel page outside the admin's own views: config/urls.py mounts it under /admin/.


@never_cache
@sensitive_post_parameters("new_password1", "new_password2")
def invitation_accept_view(request, token: str):
    """The invitee chooses their password; the invitation is then used and cannot be again."""
    invitation = invitation_from_token(token)
    panel = admin.site.each_context(request)  # the panel's header and title
    if not invitation_usable(invitation):
        return TemplateResponse(request, "registration/invitation_invalid.html", panel, status=410)
    # An unsaved user so that the password validators can compare with the e-mail.
    invitee = User(username=invitation.email, email=invitation.email, team=invitation.team)
    form = SetPasswordForm(invitee, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = invitation_accept(
                invitation=invitation, password=form.cleaned_data["new_password1"]
            )
        except (InvitationInvalid, InvitationUserExists):
            return TemplateResponse(
                request, "registration/invitation_invalid.html", panel, status=410
            )
        # They just proved the link and chose the password: logged in, on the panel's home.
        # The backend is named because there are two (django-axes' and the model's).
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            gettext("Your password is set and you are logged in to the panel of the team %(team)s.")
            % {"team": invitation.team.name},
        )
        return redirect("admin:index")
    return TemplateResponse(
        request,
        "registration/invitation_accept.html",
        {**panel, "form": form, "invitation": invitation, "title": invitation.team.name},
    )


# --- The API request log (docs/request-log.md) ---


def api_request_log_url(**filters) -> str:
    """The request log's list with these filters (`q=<request id>` finds one request)."""
    return f"{reverse('admin:agencies_apirequest_changelist')}?{urlencode(filters)}"


class StatusClassFilter(admin.SimpleListFilter):
    """2xx, 4xx or 5xx, or one status (`?status=404`, also one not listed here)."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        classes = [("2xx", _("2xx (success)")), ("4xx", _("4xx (client error)"))]
        classes.append(("5xx", _("5xx (server error)")))
        return classes + [(str(code), str(code)) for code in (400, 401, 404, 409, 422, 429)]

    def queryset(self, request, queryset):
        value = self.value() or ""
        if re.fullmatch(r"[1-5]xx", value):
            low = int(value[0]) * 100
            return queryset.filter(status__gte=low, status__lt=low + 100)
        if re.fullmatch(r"[1-5][0-9]{2}", value):
            return queryset.filter(status=int(value))
        return queryset


class PathFilter(admin.SimpleListFilter):
    """The API's resources, by the start of the path (`?path=/api/v1/bookings/bkg_…` too); a
    word anywhere in the path is the search box's."""

    title = _("path")
    parameter_name = "path"
    RESOURCES = (
        "/api/v1/bookings",
        "/api/v1/flights",
        "/api/v1/wallet",
        "/api/v1/clients",
        "/api/v1/webhooks",
        "/api/v1/events",
        "/api/v1/reports",
    )

    def lookups(self, request, model_admin):
        return [(prefix, prefix.removeprefix("/api/v1")) for prefix in self.RESOURCES]

    def queryset(self, request, queryset):
        value = self.value()
        return queryset.filter(path__startswith=value) if value else queryset


class ApiKeyFilter(admin.SimpleListFilter):
    """The team's keys (support: the keys of the team it filtered by)."""

    title = _("API key")
    parameter_name = "api_key"

    def lookups(self, request, model_admin):
        team_id = request.GET.get("team__id__exact") if is_support(request) else None
        team_id = team_id or user_team_id(request)
        if team_id is None:
            return []
        keys = ApiKey.objects.filter(team_id=team_id).order_by("-live_mode", "created_at")
        return [(key.pk, str(key)) for key in keys]

    def queryset(self, request, queryset):
        value = self.value()
        return queryset.filter(api_key_id=value) if value else queryset


class RequestModeFilter(admin.SimpleListFilter):
    """Both modes at first: a developer follows the test key's requests as much as the live."""

    title = _("live or test data")
    parameter_name = "mode"

    def lookups(self, request, model_admin):
        return [("live", _("Live data")), ("test", _("Test data"))]

    def queryset(self, request, queryset):
        if self.value() in ("live", "test"):
            return queryset.filter(live_mode=self.value() == "live")
        return queryset


@admin.register(ApiRequest)
class ApiRequestAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    """An agency's developers see their team's API requests (a request refused before its key
    was known, a 401, has no team: support sees it); support sees every team's."""

    panel_area = Area.DEVELOPERS

    list_display = [
        "created_at",
        "request_display",
        "answer_display",
        "latency_display",
        "key_prefix",
        "team",
    ]
    list_display_links = ["request_display"]
    list_filter = [StatusClassFilter, PathFilter, ApiKeyFilter, RequestModeFilter, "team"]
    # The search box: a request id exactly (as an error's `request_id` reads), or any part of
    # the path (an id: `bkg_…`).
    search_fields = ["=request_id", "path"]
    search_help_text = _("A request id (X-Request-Id), or part of the path such as an id.")
    list_select_related = ["api_key"]
    show_full_result_count = False  # one count of the filtered rows is enough
    show_facets = admin.ShowFacets.NEVER  # a count per filter choice: a scan per choice
    readonly_fields = [
        "created_at",
        "method",
        "path",
        "status_display",
        "latency_display",
        "error_code",
        "request_id",
        "key_display",
        "mode_display",
        "team",
    ]
    fields = [*readonly_fields]

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, obj):
        tone = {2: "success", 3: "info", 4: "warning"}.get(obj.status // 100, "danger")
        return format_html(
            '<span class="status status-{}" data-status="{}">{}</span>',
            tone,
            obj.status,
            obj.status,
        )

    @admin.display(description=_("answer"), ordering="status")
    def answer_display(self, obj):
        """The status, and under it an error's code (one column: the list fits a laptop)."""
        if not obj.error_code:
            return self.status_display(obj)
        return format_html(
            '{}<br><small class="error-code">{}</small>', self.status_display(obj), obj.error_code
        )

    @admin.display(description=_("duration"), ordering="latency_ms")
    def latency_display(self, obj):
        return format_html('<span class="number">{} ms</span>', number_format(obj.latency_ms))

    @admin.display(description=_("request"), ordering="path")
    def request_display(self, obj):
        """The method and path, the request id under them (what an error's body quotes)."""
        return format_html(
            '<span class="request-line">{} {}</span><br><small class="request-id">{}</small>',
            obj.method,
            obj.path,
            obj.request_id,
        )

    @admin.display(description=_("API key"))
    def key_prefix(self, obj):
        if obj.api_key is None:
            return "—"
        return format_html(
            '<span title="{}">{}…</span>', obj.api_key.name, obj.api_key.display_prefix
        )

    @admin.display(description=_("API key"))
    def key_display(self, obj):
        if obj.api_key is None:
            return "—"
        return format_html("{}<br><small>{}…</small>", obj.api_key.name, obj.api_key.display_prefix)

    @admin.display(description=_("mode"))
    def mode_display(self, obj):
        if obj.live_mode is None:
            return "—"
        return _("Live data") if obj.live_mode else _("Test data")
