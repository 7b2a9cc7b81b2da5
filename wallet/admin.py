import json

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from core.admin import ReadOnlyAdmin, TeamScopedAdmin
from core.exceptions import ApplicationError
from wallet.models import ProviderNotification, Recharge, Transaction, Wallet
from wallet.services import notification_verify_again, recharge_cancel, recharge_complete


@admin.register(Wallet)
class WalletAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    list_display = ["team", "balance", "currency", "last_transaction_at", "movement_count"]
    search_fields = ["team__name", "team__id"]


@admin.register(Transaction)
class TransactionAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    """The ledger: read-only for everyone, support staff included."""

    list_display = [
        "id",
        "team",
        "live_mode",
        "type",
        "amount",
        "balance_after",
        "reference_type",
        "reference_id",
        "payment_method",
        "created_at",
    ]
    list_filter = ["type", "reference_type", "live_mode", "payment_method", "team"]
    search_fields = ["id", "reference_id", "description"]
    date_hierarchy = "created_at"


@admin.register(Recharge)
class RechargeAdmin(TeamScopedAdmin):
    list_display = [
        "id",
        "team",
        "live_mode",
        "amount",
        "payment_method",
        "status",
        "provider",
        "created_at",
        "expires_at",
        "paid_at",
        "transaction_link",
    ]
    list_filter = [
        "status",
        "payment_method",
        "live_mode",
        "provider",
        "team",
        ("created_at", admin.DateFieldListFilter),
    ]
    search_fields = ["id", "provider_charge_id", "team__name"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "id",
        "team",
        "live_mode",
        "amount",
        "currency",
        "payment_method",
        "status",
        "provider",
        "provider_charge_id",
        "pix_copy_paste",
        "boleto_barcode",
        "boleto_linha_digitavel",
        "boleto_due_date",
        "expires_at",
        "paid_at",
        "paid_amount",
        "transaction_link",
        "failure_reason",
        "created_at",
        "updated_at",
    ]
    fields = readonly_fields
    actions = ["mark_paid", "cancel"]

    @admin.display(description="Transaction")
    def transaction_link(self, obj):
        if not obj.transaction_id:
            return "—"
        url = reverse("admin:wallet_transaction_change", args=[obj.transaction_id])
        return format_html('<a href="{}">{}</a>', url, obj.transaction_id)

    def has_add_permission(self, request):
        return False  # recharges are requested through the API

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Mark paid (sandbox recharges only)", permissions=["change"])
    def mark_paid(self, request, queryset):
        for recharge in queryset:
            if recharge.provider != "sandbox":
                self.message_user(
                    request,
                    f"{recharge.id} is a real {recharge.provider} charge: "
                    "it is paid by its payer, not here.",
                    messages.ERROR,
                )
                continue
            recharge_complete(recharge=recharge)
            self.message_user(request, f"{recharge.id} paid.", messages.SUCCESS)

    @admin.action(description="Cancel pending recharges", permissions=["change"])
    def cancel(self, request, queryset):
        for recharge in queryset:
            try:
                recharge_cancel(recharge=recharge)
            except ApplicationError as exc:
                self.message_user(request, f"{recharge.id}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{recharge.id} cancelled.", messages.SUCCESS)


@admin.register(ProviderNotification)
class ProviderNotificationAdmin(ReadOnlyAdmin):
    """Every payment notification received, with what the provider said when we read the
    payment back. Support only. Never edited by hand (no add, change or delete): the only
    change is "verify again", which re-decides a rejected one and logs it in its history."""

    list_display = [
        "received_at",
        "event_type",
        "state",
        "reason",
        "payment_id",
        "recharge_link",
        "provider_status",
        "alert_sent_at",
    ]
    list_filter = ["state", "reason", "provider", "event_type"]
    search_fields = ["event_id", "payment_id", "recharge__id"]
    date_hierarchy = "received_at"
    list_select_related = ["recharge"]
    fields = [
        "provider",
        "event_id",
        "event_type",
        "payment_id",
        "recharge_link",
        "received_at",
        "state",
        "reason",
        "detail",
        "provider_status",
        "provider_value",
        "provider_reference",
        "alert_sent_at",
        "alert_sent_to",
        "payload_pretty",
    ]
    readonly_fields = fields
    actions = ["verify_again"]

    @admin.action(
        description="Verify again with the provider (credits what it now confirms)",
        permissions=["verify"],
    )
    def verify_again(self, request, queryset):
        """For a rejected notification whose payment the provider may now show as received.
        A confirmation page first (it can move money), then each one verified and logged."""
        rejected = list(
            queryset.filter(state=ProviderNotification.State.REJECTED).select_related(
                "recharge__team"
            )
        )
        skipped = [n.event_id for n in queryset if n.state != ProviderNotification.State.REJECTED]
        if not rejected:
            self.message_user(request, "Only rejected notifications can be verified again.")
            return None
        if request.POST.get("post") != "yes":
            return TemplateResponse(
                request,
                "admin/wallet/providernotification/verify_again.html",
                {
                    **self.admin_site.each_context(request),
                    "title": "Verify again with the provider?",
                    "opts": self.model._meta,
                    "notifications": rejected,
                    "skipped": skipped,
                    "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                },
            )
        for notification in rejected:
            before = f"{notification.get_reason_display()} ({notification.detail})"
            try:
                row = notification_verify_again(notification=notification)
            except ApplicationError as exc:
                self.message_user(
                    request, f"Notification {notification.event_id}: {exc.message}", messages.ERROR
                )
                continue
            self.log_change(
                request, row, f"Verified again: was rejected, {before}; now {row.state}."
            )
            if row.state == ProviderNotification.State.REJECTED:
                self.message_user(
                    request,
                    f"Notification {row.event_id}: still rejected: "
                    f"{row.get_reason_display()} ({row.detail})",
                    messages.WARNING,
                )
            else:
                self.message_user(
                    request,
                    f"Notification {row.event_id}: {row.get_state_display()}.",
                    messages.SUCCESS,
                )
        return None

    def has_verify_permission(self, request):
        return getattr(request.user, "is_support", False)

    @admin.display(description="Recharge", ordering="recharge")
    def recharge_link(self, obj):
        if not obj.recharge_id:
            return "—"
        url = reverse("admin:wallet_recharge_change", args=[obj.recharge_id])
        return format_html('<a href="{}">{}</a>', url, obj.recharge_id)

    @admin.display(description="Body as received")
    def payload_pretty(self, obj):
        return format_html("<pre>{}</pre>", json.dumps(obj.payload, indent=2, ensure_ascii=False))

    def has_module_permission(self, request):
        return getattr(request.user, "is_support", False)  # anonymous on the login page

    def has_view_permission(self, request, obj=None):
        return getattr(request.user, "is_support", False)
