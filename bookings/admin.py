from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from bookings.models import Booking, BookingDocument, BookingPassenger
from bookings.selectors import bookings_needing_attention
from bookings.services import booking_cancel, booking_check_with_supplier
from core.admin import TeamScopedAdmin
from core.exceptions import ApplicationError
from wallet.models import Transaction
from webhooks.models import Event


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class PassengerInline(ReadOnlyInline):
    model = BookingPassenger
    fields = [
        "passenger_id",
        "type",
        "title",
        "given_name",
        "family_name",
        "gender",
        "born_on",
        "email",
        "phone_number",
        "infant_passenger_id",
    ]
    readonly_fields = fields


class DocumentInline(ReadOnlyInline):
    model = BookingDocument
    fields = ["type", "unique_identifier", "passenger_id"]
    readonly_fields = fields


class NeedsAttentionFilter(admin.SimpleListFilter):
    """Support's worklist: supplier outcome unknown past the grace period, ticketing stuck, or
    left without a supplier order by a request that died."""

    title = "needs attention"
    parameter_name = "attention"

    def lookups(self, request, model_admin):
        return [("yes", "Needs attention")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(pk__in=bookings_needing_attention().values("pk"))
        return queryset


@admin.register(Booking)
class BookingAdmin(TeamScopedAdmin):
    list_display = [
        "id",
        "booking_reference",
        "team",
        "live_mode",
        "type",
        "status",
        "total_amount",
        "total_currency",
        "base_cost_brl",
        "client",
        "supplier_outcome",
        "created_at",
    ]
    list_filter = [NeedsAttentionFilter, "status", "type", "live_mode", "supplier", "team"]
    search_fields = ["id", "booking_reference", "client__email", "client__full_name"]
    date_hierarchy = "created_at"
    inlines = [PassengerInline, DocumentInline]
    readonly_fields = [
        "id",
        "team",
        "live_mode",
        "client",
        "offer_id",
        "type",
        "status",
        "supplier",
        "supplier_order_id",
        "booking_reference",
        "total_amount",
        "total_currency",
        "base_amount",
        "tax_amount",
        "exchange_rate",
        "base_cost_brl",
        "departing_at",
        "payment_required_by",
        "price_guarantee_expires_at",
        "metadata",
        "failure_reason",
        "supplier_outcome",
        "outcome_checked_at",
        "created_at",
        "confirmed_at",
        "ticketed_at",
        "cancelled_at",
        "wallet_transactions",
        "events",
    ]
    fields = readonly_fields
    actions = ["cancel", "check_with_supplier"]

    @admin.display(description="Supplier outcome")
    def supplier_outcome(self, obj):
        if obj.outcome_unknown_since is None:
            return "—"
        return format_html(
            "<strong>Unknown since {}</strong><br>{}", obj.outcome_unknown_since, obj.outcome_note
        )

    def has_check_permission(self, request):
        return request.user.is_support

    @admin.action(
        description="Check with the supplier now (settles what the supplier confirms)",
        permissions=["check"],
    )
    def check_with_supplier(self, request, queryset):
        for booking in queryset:
            try:
                outcome = booking_check_with_supplier(booking=booking)
            except ApplicationError as exc:
                self.message_user(request, f"{booking.id}: {exc.message}", messages.ERROR)
                continue
            booking.refresh_from_db()
            note = f" ({booking.outcome_note})" if booking.outcome_note else ""
            level = messages.WARNING if outcome in ("unknown", "busy") else messages.SUCCESS
            self.message_user(
                request, f"{booking.id}: {outcome}, now {booking.status}{note}", level
            )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Wallet transactions")
    def wallet_transactions(self, obj):
        rows = Transaction.objects.filter(
            team=obj.team, live_mode=obj.live_mode, reference_id=obj.id
        ).order_by("created_at")
        return (
            format_html_join(
                "",
                '<div><a href="{}">{}</a> {} {} BRL ({})</div>',
                (
                    (
                        reverse("admin:wallet_transaction_change", args=[t.pk]),
                        t.id,
                        t.type,
                        t.amount,
                        t.reference_type,
                    )
                    for t in rows
                ),
            )
            or "—"
        )

    @admin.display(description="Events")
    def events(self, obj):
        rows = Event.objects.filter(team=obj.team, data_object__id=obj.id).order_by("created_at")
        return format_html_join(
            "", "<div>{} · {}</div>", ((e.type, e.created_at) for e in rows)
        ) or format_html("—")

    @admin.action(
        description="Cancel selected bookings (refund per fare rules)", permissions=["change"]
    )
    def cancel(self, request, queryset):
        for booking in queryset:
            try:
                booking_cancel(booking=booking)
            except ApplicationError as exc:
                self.message_user(request, f"{booking.id}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{booking.id} cancelled.", messages.SUCCESS)
