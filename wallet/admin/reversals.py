"""Reversals of recharges in the panel (docs/reversals.md): every refund or chargeback taken
back from a wallet after its recharge was credited, what the balance paid and what is still
owed. Read-only for everyone: reversals are written by the provider's verified answers, and
support's only action is to ask the provider again (on the recharge's page)."""

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from panel.admin import (
    ReadOnlyAdmin,
    TeamScopedAdmin,
    admin_url,
    live_mode_filter,
    money_cell,
    status_label,
)
from panel.roles import Area
from wallet.models import Recharge, Reversal, Transaction


class OwedFilter(admin.SimpleListFilter):
    title = _("debt")
    parameter_name = "owed"

    def lookups(self, request, model_admin):
        return [("yes", _("Still owed")), ("no", _("Paid or none"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(debt_outstanding__gt=0)
        if self.value() == "no":
            return queryset.filter(debt_outstanding=0)
        return queryset


@admin.register(Reversal)
class ReversalAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    panel_area = Area.WALLET
    list_display = [
        "created_at",
        "team",
        "recharge_link",
        "reason_display",
        "status_display",
        "money_amount",
        "money_debited",
        "money_debt_outstanding",
    ]
    list_filter = [live_mode_filter(), OwedFilter, "reason", "status", "team"]
    search_fields = [
        "id",
        "recharge__id",
        "recharge__provider_charge_id",
        "team__name",
        "team__id",
    ]
    search_help_text = _("Reversal id, recharge id, provider payment id, or team (name or id).")
    date_hierarchy = "created_at"
    list_select_related = ["team", "recharge"]
    readonly_fields = [
        "id",
        "team",
        "live_mode",
        "recharge_link",
        "number",
        "reason_display",
        "status_display",
        "money_amount",
        "money_debited",
        "transaction_link",
        "money_debt_created",
        "money_debt_outstanding",
        "credit_transaction_link",
        "provider_status",
        "detail",
        "event_type",
        "created_at",
        "cancelled_at",
        "alert_sent_at",
        "alert_sent_to",
    ]
    fields = [*readonly_fields]

    @admin.display(description=_("recharge"), ordering="recharge")
    def recharge_link(self, obj):
        url = admin_url(Recharge, "change", obj.recharge_id)
        return format_html('<a href="{}">{}</a>', url, obj.recharge_id)

    @admin.display(description=_("reason"), ordering="reason")
    def reason_display(self, obj):
        return obj.get_reason_display()

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, obj):
        tone = "failed" if obj.status == Reversal.Status.APPLIED else "completed"
        return status_label(tone, obj.get_status_display())

    @admin.display(description=_("amount reversed"), ordering="amount")
    def money_amount(self, obj):
        return money_cell(obj.amount, negative=True)

    @admin.display(description=_("debited from the balance"))
    def money_debited(self, obj):
        return money_cell(obj.debited_amount, negative=True)

    @admin.display(description=_("debt created"))
    def money_debt_created(self, obj):
        return money_cell(obj.debt_created)

    @admin.display(description=_("debt outstanding"), ordering="debt_outstanding")
    def money_debt_outstanding(self, obj):
        return money_cell(obj.debt_outstanding)

    @admin.display(description=_("debit"))
    def transaction_link(self, obj):
        return _transaction_link(obj.transaction_id)

    @admin.display(description=_("credit back"))
    def credit_transaction_link(self, obj):
        return _transaction_link(obj.credit_transaction_id)


def _transaction_link(transaction_id: str | None) -> str:
    if not transaction_id:
        return "—"
    url = admin_url(Transaction, "change", transaction_id)
    return format_html('<a href="{}">{}</a>', url, transaction_id)


class ReversalInline(admin.TabularInline):
    """A recharge's reversals on its page: a handful at most (one per partial refund)."""

    model = Reversal
    fk_name = "recharge"
    extra = 0
    can_delete = False
    verbose_name_plural = _("reversals (refunds and chargebacks after the credit)")
    readonly_fields = [
        "reversal_link",
        "created_at",
        "reason",
        "status",
        "money_amount",
        "money_debited",
        "money_debt_outstanding",
    ]
    fields = [*readonly_fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description=_("reversal"))
    def reversal_link(self, obj):
        url = admin_url(Reversal, "change", obj.pk)
        return format_html('<a href="{}">{}</a>', url, obj.pk)

    @admin.display(description=_("amount reversed"))
    def money_amount(self, obj):
        return money_cell(obj.amount, negative=True)

    @admin.display(description=_("debited from the balance"))
    def money_debited(self, obj):
        return money_cell(obj.debited_amount, negative=True)

    @admin.display(description=_("debt outstanding"))
    def money_debt_outstanding(self, obj):
        return money_cell(obj.debt_outstanding)
