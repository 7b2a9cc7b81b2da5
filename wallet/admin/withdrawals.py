"""Withdrawals in the panel: the team's payout PIX key (registered by an agency user, confirmed on
a page that says where the money will go, audited) and every withdrawal with its transfer, which
support checks again with the provider when one is stuck (docs/withdrawals.md)."""

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from agencies.models import Team
from core.audit import audit_action
from core.money import money_display
from panel.admin import (
    TeamScopedAdmin,
    admin_url,
    is_support,
    live_mode_filter,
    money_cell,
    status_label,
    user_team_id,
)
from panel.roles import Area
from wallet.models import PayoutKey, Transaction, Withdrawal
from wallet.selectors import wallet_balance_snapshot
from wallet.services import payout_key_normalize, withdrawal_check_again


class PayoutKeyForm(forms.ModelForm):
    class Meta:
        model = PayoutKey
        fields = ["team", "key_type", "key"]

    def __init__(self, *args, team: Team | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fixed_team = team

    def clean(self):
        cleaned = super().clean()
        team = self.fixed_team or cleaned.get("team") or getattr(self.instance, "team", None)
        if team is None or not cleaned.get("key_type") or not cleaned.get("key"):
            return cleaned
        try:
            cleaned["key"] = payout_key_normalize(
                team=team, key_type=cleaned["key_type"], key=cleaned["key"]
            )
        except ValidationError as exc:
            self.add_error("key", exc)
        return cleaned


@admin.register(PayoutKey)
class PayoutKeyAdmin(TeamScopedAdmin):
    """One key per team. Saving it is confirmed on a page that shows the key and the document
    its holder must have, then recorded as one audit entry."""

    panel_area = Area.PAYOUT

    form = PayoutKeyForm
    list_display = ["team", "key_type", "key", "registered_at"]
    list_select_related = ["team"]
    search_fields = ["team__name", "key"]
    readonly_fields = ["team_tax_id", "registered_at"]

    def get_fields(self, request, obj=None):
        fields = ["key_type", "key", "team_tax_id", "registered_at"]
        if is_support(request) and obj is None:
            return ["team", *fields]
        return fields

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "team"] if obj is not None else self.readonly_fields

    def get_form(self, request, obj=None, change=False, **kwargs):
        form_class = super().get_form(request, obj, change, **kwargs)
        team = obj.team if obj is not None else self._own_team(request)

        class ScopedPayoutKeyForm(form_class):
            def __init__(self, *args, **kw):
                super().__init__(*args, team=team, **kw)

        return ScopedPayoutKeyForm

    def _own_team(self, request) -> Team | None:
        team_id = user_team_id(request)
        return Team.objects.filter(pk=team_id).first() if team_id else None

    @admin.display(description=_("the team's CNPJ or CPF"))
    def team_tax_id(self, obj):
        return (obj.team.tax_id if obj and obj.team_id else "") or "—"

    def has_add_permission(self, request):
        team_id = user_team_id(request)
        if team_id and PayoutKey.objects.filter(team_id=team_id).exists():
            return False  # one key per team: change the one there is
        return super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """A valid POST first renders the confirmation page (where the money will go); the
        page posts the same form back with `_confirmed`, and the key is saved."""
        if request.method == "POST" and request.POST.get("_confirmed") != "yes":
            confirmation = self._confirmation(request, object_id)
            if confirmation is not None:
                return confirmation
        return super().changeform_view(request, object_id, form_url, extra_context)

    def _confirmation(self, request, object_id):
        obj = self.get_object(request, unquote(object_id)) if object_id else None
        if object_id and (obj is None or not self.has_change_permission(request, obj)):
            return None  # the admin's own view answers (not found / forbidden)
        if obj is None and not self.has_add_permission(request):
            return None
        form = self.get_form(request, obj, change=obj is not None)(
            request.POST, request.FILES, instance=obj
        )
        if not form.is_valid():
            return None  # the admin's form shows the errors
        new = form.instance
        team = new.team if new.team_id else self._own_team(request)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Register this payout PIX key?"),
            "subtitle": None,
            "opts": self.opts,
            "original": obj,
            "team": team,
            "old": str(PayoutKey.objects.get(pk=obj.pk)) if obj else None,
            "new": f"{new.get_key_type_display()} {form.cleaned_data['key']}",
            "posted": [(k, v) for k, values in request.POST.lists() for v in values],
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/wallet/payoutkey/confirm.html", context)

    def save_model(self, request, obj, form, change):
        if not change and not is_support(request):
            obj.team_id = user_team_id(request)
        summary = gettext("%(key)s; its holder must have the CNPJ or CPF %(tax_id)s") % {
            "key": str(obj),
            "tax_id": obj.team.tax_id,
        }
        audit_action(
            actor=request.user,
            obj=obj,
            action="payout_key_register",
            summary=summary,
            run=lambda _before: obj.save(),
            created=not change,
        )


@admin.register(Withdrawal)
class WithdrawalAdmin(TeamScopedAdmin):
    panel_area = Area.WALLET
    list_display = [
        "id",
        "team",
        "status_display",
        "money_amount",
        "provider_status",
        "created_at",
    ]
    list_filter = [live_mode_filter(), "status", "provider", "team"]
    search_fields = ["id", "provider_transfer_id", "team__name", "pix_key"]
    search_help_text = _("Withdrawal id, provider transfer id, PIX key or team.")
    date_hierarchy = "created_at"
    list_select_related = ["team"]
    readonly_fields = [
        "id",
        "team",
        "live_mode",
        "money_amount",
        "status_display",
        "pix_key_type",
        "pix_key",
        "holder_name",
        "holder_tax_id",
        "provider",
        "provider_transfer_id",
        "provider_status",
        "submitted_at",
        "submit_attempts",
        "checked_at",
        "refused_at",
        "failure_code",
        "failure_reason",
        "debit_link",
        "refund_link",
        "completed_at",
        "failed_at",
        "email_sent_at",
        "created_at",
    ]
    fields = [*readonly_fields]
    actions = ["check_again"]

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, obj):
        return status_label(obj.status, obj.get_status_display())

    @admin.display(description=_("amount"), ordering="amount")
    def money_amount(self, obj):
        return money_cell(obj.amount, obj.currency)

    def _transaction_link(self, transaction_id):
        if not transaction_id:
            return "—"
        url = admin_url(Transaction, "change", transaction_id)
        return format_html('<a href="{}">{}</a>', url, transaction_id)

    @admin.display(description=_("debit"))
    def debit_link(self, obj):
        return self._transaction_link(obj.debit_transaction_id)

    @admin.display(description=_("credit back"))
    def refund_link(self, obj):
        return self._transaction_link(obj.refund_transaction_id)

    def has_add_permission(self, request):
        return False  # withdrawals are requested through the API

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_check_permission(self, request):
        return is_support(request)

    @admin.action(
        description=_("Check again with the provider (stuck withdrawals)"), permissions=["check"]
    )
    def check_again(self, request, queryset):
        def describe(withdrawal):
            if withdrawal.is_final:
                return _("Already %(status)s: nothing changes.") % {
                    "status": withdrawal.get_status_display()
                }
            if withdrawal.provider_transfer_id:
                return _(
                    "Transfer %(transfer)s is read back from %(provider)s: completed, or "
                    "credited back (%(amount)s) if it failed or was cancelled."
                ) % {
                    "transfer": withdrawal.provider_transfer_id,
                    "provider": withdrawal.provider,
                    "amount": money_display(withdrawal.amount),
                }
            return _(
                "No transfer id yet: it is looked up at %(provider)s by %(id)s, and requested "
                "again only if %(provider)s has none and the last request is older than a few "
                "minutes (it never reached %(provider)s)."
            ) % {"provider": withdrawal.provider, "id": withdrawal.id}

        return self.confirm_then_run(
            request,
            queryset,
            action="withdrawal_check_again",
            title=_("Check withdrawals again"),
            question=_("Check these withdrawals again with the payment provider?"),
            describe=describe,
            run=lambda withdrawal: withdrawal_check_again(withdrawal=withdrawal),
            done_message=_("Checked %(object)s."),
            extra_changes=wallet_balance_snapshot,
        )
