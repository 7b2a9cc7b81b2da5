"""The ledger in the panel: the wallets, their movements (read-only for everyone, support
included) and each wallet's statement (wallet/admin/statement.py)."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from panel.admin import ReadOnlyAdmin, TeamScopedAdmin, live_mode_filter, money_cell, status_label
from panel.roles import Area
from wallet.admin.statement import statement_url
from wallet.admin.statement import urls as statement_urls
from wallet.models import Transaction, Wallet


class InDebtFilter(admin.SimpleListFilter):
    """Wallets in debt after a recharge was reversed: restricted until credits pay it."""

    title = _("debt")
    parameter_name = "in_debt"

    def lookups(self, request, model_admin):
        return [("yes", _("In debt (restricted)")), ("no", _("No debt"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(debt__gt=0)
        if self.value() == "no":
            return queryset.filter(debt=0)
        return queryset


@admin.register(Wallet)
class WalletAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    panel_area = Area.WALLET
    list_display = [
        "team",
        "money_balance",
        "money_debt",
        "last_transaction_at",
        "movement_count",
    ]
    list_filter = [InDebtFilter]
    search_fields = ["team__name", "team__id", "team__tax_id"]
    readonly_fields = [
        "team",
        "money_balance",
        "money_debt",
        "reversals_link",
        "last_transaction_at",
        "movement_count",
        "created_at",
    ]
    fields = [*readonly_fields]

    @admin.display(description=_("balance"), ordering="balance")
    def money_balance(self, obj):
        return money_cell(obj.balance, obj.currency)

    @admin.display(description=_("debt"), ordering="debt")
    def money_debt(self, obj):
        if not obj.debt:
            return money_cell(obj.debt, obj.currency)
        return format_html(
            "{} {}",
            money_cell(obj.debt, obj.currency),
            status_label("failed", gettext("Restricted")),
        )

    @admin.display(description=_("reversals"))
    def reversals_link(self, obj):
        url = reverse("admin:wallet_reversal_changelist")
        return format_html(
            '<a href="{}?q={}">{}</a>',
            url,
            obj.team_id,
            gettext("Refunds and chargebacks after the credit"),
        )

    def get_list_display(self, request):
        return [*super().get_list_display(request), "statement_link"]

    def get_fields(self, request, obj=None):
        return [*super().get_fields(request, obj), "statement_link"]

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "statement_link"]

    @admin.display(description=_("statement"))
    def statement_link(self, obj):
        return format_html(
            '<a href="{}">{}</a>', statement_url(team=obj.team_id), gettext("Statement")
        )


@admin.register(Transaction)
class TransactionAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    """The ledger: read-only for everyone, support staff included."""

    panel_area = Area.WALLET

    # When first (the link to the row), then what and how much; ids are long: in the detail.
    list_display = [
        "created_at",
        "team",
        "type_display",
        "money_amount",
        "money_balance_after",
        "reference",
    ]
    list_filter = [live_mode_filter(), "type", "reference_type", "payment_method", "team"]
    search_fields = ["id", "reference_id", "description"]
    search_help_text = _("Transaction id, booking or recharge id, or description.")
    date_hierarchy = "created_at"
    list_select_related = ["team"]
    readonly_fields = [
        "id",
        "team",
        "live_mode",
        "type_display",
        "money_amount",
        "money_balance_after",
        "description",
        "reference",
        "payment_method",
        "sequence",
        "created_at",
    ]
    fields = [*readonly_fields]

    def get_urls(self):
        return statement_urls(self) + super().get_urls()  # /admin/wallet/transaction/statement/

    @admin.display(description=_("type"), ordering="type")
    def type_display(self, obj):
        return status_label(obj.type, obj.get_type_display())

    @admin.display(description=_("amount"), ordering="amount")
    def money_amount(self, obj):
        return money_cell(obj.amount, obj.currency, negative=obj.type == Transaction.Type.DEBIT)

    @admin.display(description=_("balance after"))
    def money_balance_after(self, obj):
        return money_cell(obj.balance_after, obj.currency)

    @admin.display(description=_("reference"), ordering="reference_id")
    def reference(self, obj):
        return format_html(
            "{}<br><small>{}</small>", obj.get_reference_type_display(), obj.reference_id
        )
