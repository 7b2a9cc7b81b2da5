from datetime import date

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.utils.formats import date_format, localize
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from bookings.display import (
    booking_page,
    booking_route,
    cancellation_effect,
    cancellation_note_for_people,
    cancelled_message,
)
from bookings.models import Booking, BookingCancellation, BookingDocument, BookingPassenger
from bookings.selectors import bookings_needing_attention
from bookings.services import (
    booking_cancellable,
    booking_cancellation_confirm,
    booking_cancellation_get,
    booking_cancellation_quote,
    booking_check_with_supplier,
)
from core.exceptions import ApplicationError
from core.money import money_display
from flights.models import PassengerType
from panel.admin import (
    TeamScopedAdmin,
    admin_url,
    is_support,
    live_mode_filter,
    money_cell,
    status_label,
)
from panel.roles import Area
from wallet.models import Transaction
from wallet.selectors import wallet_balance_snapshot
from webhooks.models import Event

# The confirmation page posts back the quote it showed, one `<booking id>:<bcn_ id>` each.
QUOTE_FIELD = "cancellation_quote"


# What "check with the supplier" found (booking_check_with_supplier's answers), in words.
CHECK_OUTCOMES = {
    "confirmed": _("the cancellation is confirmed and settled"),
    "expired": _("the supplier did not cancel; the quote lapsed"),
    "unknown": _("still unknown, checked again later"),
    "busy": _("another check is running"),
    "settled": _("nothing left to find out"),
    "ticketed": _("tickets issued"),
    "held": _("held at the supplier"),
    "failed": _("failed, refunded in full"),
}


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# The API's values, in words (the values themselves are the spec's, in English).
PASSENGER_TYPES = dict(PassengerType.choices)
GENDERS = dict(BookingPassenger.Gender.choices)
DOCUMENT_TYPES = {"electronic_ticket": _("E-ticket")}


class PassengerInline(ReadOnlyInline):
    """At most nine passengers per booking (the search's limit): bounded."""

    model = BookingPassenger
    readonly_fields = [
        "passenger_id",
        "type_display",
        "title",
        "given_name",
        "family_name",
        "gender_display",
        "born_on",
        "email",
        "phone_number",
        "infant_passenger_id",
    ]
    fields = [*readonly_fields]

    @admin.display(description=_("type"))
    def type_display(self, obj):
        return PASSENGER_TYPES.get(obj.type, obj.type)

    @admin.display(description=_("gender"))
    def gender_display(self, obj):
        return GENDERS.get(obj.gender, obj.gender)


class DocumentInline(ReadOnlyInline):
    """One e-ticket per passenger: bounded."""

    model = BookingDocument
    readonly_fields = ["type_display", "unique_identifier", "passenger_id"]
    fields = [*readonly_fields]

    @admin.display(description=_("type"))
    def type_display(self, obj):
        return DOCUMENT_TYPES.get(obj.type, obj.type)


class NeedsAttentionFilter(admin.SimpleListFilter):
    """Support's worklist: supplier outcome unknown past the grace period, ticketing stuck, or
    left without a supplier order by a request that died."""

    title = _("attention")
    parameter_name = "attention"

    def lookups(self, request, model_admin):
        # Support's: an agency user does not see it (a filter without choices is not shown).
        return [("yes", _("Needs attention"))] if request.user.is_support else []

    def queryset(self, request, queryset):
        if self.value() == "yes" and request.user.is_support:
            return queryset.filter(pk__in=bookings_needing_attention().values("pk"))
        return queryset


@admin.register(Booking)
class BookingAdmin(TeamScopedAdmin):
    panel_area = Area.BOOKINGS
    # What an agency reads a booking by, and its price in reais (the client's; the cost for
    # support too): never the airline's fare in its own currency, which mixes currencies.
    list_display = [
        "booking_reference_display",
        "lead_passenger",
        "route_display",
        "departure_display",
        "team",
        "status_display",
        "money_client",
        "money_cost_brl",
        "created_at",
    ]
    list_filter = [
        NeedsAttentionFilter,
        live_mode_filter(),
        "status",
        "type",
        "supplier",
        "team",
    ]
    # What people search by: the locator, an e-ticket number, a passenger's name, the client,
    # the agency's own reference in the metadata, or our id.
    search_fields = [
        "id",
        "booking_reference",
        "documents__unique_identifier",
        "passengers__given_name",
        "passengers__family_name",
        "client__email",
        "client__full_name",
        "metadata",
    ]
    search_help_text = _(
        "Locator, e-ticket number, passenger name, client, reference in the metadata or id."
    )
    date_hierarchy = "created_at"
    list_select_related = ["team", "client"]
    inlines = [PassengerInline, DocumentInline]
    readonly_fields = [
        "id",
        "team",
        "live_mode",
        "client",
        "offer_id",
        "type",
        "status_display",
        "supplier",
        "supplier_order_id",
        "booking_reference",
        "money_total",
        "money_base",
        "money_tax",
        "exchange_rate",
        "money_cost",
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
        "personal_data_erased_at",
        "wallet_transactions",
        "events",
    ]
    fields = [*readonly_fields]
    actions = ["cancel", "check_with_supplier"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("passengers")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The readable booking page (bookings/display.py) above the booking's fields: only for a
        booking the user may see (get_object is scoped to their team), with only the actions
        they may take."""
        booking = self.get_object(request, unquote(object_id))
        if booking is not None and self.has_view_or_change_permission(request, booking):
            extra_context = {
                "page": booking_page(booking),
                "status_label": self.status_display(booking),
                "page_actions": self.page_actions(request, booking),
                **(extra_context or {}),
            }
        return super().change_view(request, object_id, form_url, extra_context)

    def page_actions(self, request, booking) -> list[dict]:
        """The list actions this user may take on this booking, as buttons of its page (each
        opens the action's confirmation page, as from the list)."""
        actions = []
        # booking_cancellable: no call to the supplier for a button.
        if self.has_change_permission(request, booking) and booking_cancellable(booking=booking):
            actions.append({"name": "cancel", "label": _("Cancel booking")})
        unknown = booking.outcome_unknown_since is not None or (
            booking.cancellations.filter(status="unknown").exists()
        )
        if self.has_check_permission(request) and unknown:
            actions.append({"name": "check_with_supplier", "label": _("Check with the supplier")})
        for action in actions:
            action["url"] = admin_url(Booking, "changelist") + (
                "?mode=live" if booking.live_mode else "?mode=test"
            )
        return actions

    @admin.display(description=_("locator"), ordering="booking_reference")
    def booking_reference_display(self, obj):
        # The locator (our id on hover: the page shows it); the id when there is no locator yet.
        if not obj.booking_reference:
            return format_html("<small>{}</small>", obj.id)
        return format_html('<strong title="{}">{}</strong>', obj.id, obj.booking_reference)

    @admin.display(description=_("lead passenger"))
    def lead_passenger(self, obj):
        passengers = list(obj.passengers.all())
        if not passengers:
            return "—"
        lead = f"{passengers[0].given_name} {passengers[0].family_name}"
        if len(passengers) > 1:
            return f"{lead} +{len(passengers) - 1}"
        return lead

    def get_list_display(self, request):
        display = super().get_list_display(request)
        return display if is_support(request) else [c for c in display if c != "money_cost_brl"]

    @admin.display(description=_("route"))
    def route_display(self, obj):
        return booking_route(obj.slices) or "—"

    @admin.display(description=_("departure"), ordering="departing_at")
    def departure_display(self, obj):
        """The first flight's date as the airline gives it (the departure airport's own day)."""
        try:
            local = obj.slices[0]["segments"][0]["departing_at"]
        except (IndexError, KeyError, TypeError):
            return "—"
        return date_format(date.fromisoformat(local[:10]), "SHORT_DATE_FORMAT")

    @admin.display(description=_("client price"), ordering="client_amount")
    def money_client(self, obj):
        return money_cell(obj.client_amount, "BRL")

    @admin.display(description=_("cost"), ordering="base_cost_brl")
    def money_cost_brl(self, obj):
        return money_cell(obj.base_cost_brl, "BRL")

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, obj):
        label = status_label(obj.status, obj.get_status_display())
        if obj.outcome_unknown_since is None:
            return label
        # The supplier's answer is uncertain: said in the status cell, where people look.
        return format_html("{} {}", label, status_label("pending", _("Supplier outcome unknown")))

    @admin.display(description=_("supplier outcome"))
    def supplier_outcome(self, obj):
        if obj.outcome_unknown_since is None:
            return "—"
        return format_html(
            "<strong>{}</strong><br>{}",
            gettext("Unknown since %(moment)s")
            % {"moment": localize(localtime(obj.outcome_unknown_since))},
            obj.outcome_note,
        )

    @admin.display(description=_("total"), ordering="total_amount")
    def money_total(self, obj):
        return money_cell(obj.total_amount, obj.total_currency)

    @admin.display(description=_("base fare"))
    def money_base(self, obj):
        return money_cell(obj.base_amount, obj.total_currency)

    @admin.display(description=_("taxes"))
    def money_tax(self, obj):
        return money_cell(obj.tax_amount, obj.total_currency)

    @admin.display(description=_("cost in BRL (debited from the wallet)"))
    def money_cost(self, obj):
        return money_cell(obj.base_cost_brl)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("wallet transactions"))
    def wallet_transactions(self, obj):
        rows = Transaction.objects.filter(
            team=obj.team, live_mode=obj.live_mode, reference_id=obj.id
        ).order_by("created_at")
        return format_html_join(
            "",
            '<div><a href="{}">{}</a> · {} · {} · {} · {}</div>',
            (
                (
                    admin_url(Transaction, "change", t.pk),
                    t.id,
                    t.get_type_display(),
                    money_cell(t.amount, negative=t.type == Transaction.Type.DEBIT),
                    t.get_reference_type_display(),
                    localize(localtime(t.created_at)),
                )
                for t in rows
            ),
        ) or mark_safe("—")

    @admin.display(description=_("events"))
    def events(self, obj):
        rows = Event.objects.filter(team=obj.team, data_object__id=obj.id).order_by("created_at")
        return format_html_join(
            "",
            "<div>{} · <code>{}</code></div>",
            ((localize(localtime(e.created_at)), e.type) for e in rows),
        ) or mark_safe("—")

    @admin.action(
        description=_("Cancel selected bookings (refund as the airline quotes)"),
        permissions=["change"],
    )
    def cancel(self, request, queryset):
        """The confirmation page asks the supplier for a quote of each booking and shows it;
        "yes" confirms that very quote (its `bcn_` id posted back), never a newer one."""
        posted = dict(
            value.split(":", 1)
            for value in request.POST.getlist(QUOTE_FIELD)
            if request.POST.get("post") == "yes" and ":" in value
        )
        quotes: dict[str, BookingCancellation] = {}

        def quote_of(booking) -> BookingCancellation:
            if booking.pk not in quotes:
                if booking.pk in posted:  # the quote the page showed
                    quotes[booking.pk] = booking_cancellation_get(
                        booking=booking, cancellation_id=posted[booking.pk]
                    )
                else:
                    quotes[booking.pk] = booking_cancellation_quote(booking=booking)
            return quotes[booking.pk]

        def describe(booking):
            try:
                return cancellation_effect(booking, quote_of(booking))
            except ApplicationError as exc:
                return _("Cannot be cancelled: %(reason)s") % {"reason": gettext(exc.message)}

        def run(booking):
            quoted = quote_of(booking)
            confirmed = booking_cancellation_confirm(booking=booking, cancellation_id=quoted.pk)
            if confirmed.wallet_credit_amount != quoted.wallet_credit_amount:
                self.message_user(
                    request,
                    gettext(
                        "%(booking)s: the airline confirmed a refund other than its quote; "
                        "the wallet was credited %(brl)s (quoted %(quoted)s)."
                    )
                    % {
                        "booking": booking.booking_reference or booking.pk,
                        "brl": money_display(confirmed.wallet_credit_amount),
                        "quoted": money_display(quoted.wallet_credit_amount),
                    },
                    messages.WARNING,
                )
            return confirmed

        return self.confirm_then_run(
            request,
            queryset,
            action="booking_cancel",
            title=_("Cancel bookings"),
            question=_("Cancel these bookings at the airline?"),
            describe=describe,
            run=run,
            done_message=cancelled_message,
            extra_changes=wallet_balance_snapshot,
            carried=lambda: [(QUOTE_FIELD, f"{pk}:{quote.pk}") for pk, quote in quotes.items()],
        )

    def has_check_permission(self, request):
        return request.user.is_support

    @admin.action(
        description=_("Check with the supplier now (settles what the supplier confirms)"),
        permissions=["check"],
    )
    def check_with_supplier(self, request, queryset):
        for booking in queryset:
            # A cancellation whose answer was lost is what the check settles first.
            cancelling = booking.cancellations.filter(status="unknown").first()
            try:
                outcome = booking_check_with_supplier(booking=booking)
            except ApplicationError as exc:
                self.message_user(request, f"{booking.id}: {gettext(exc.message)}", messages.ERROR)
                continue
            booking.refresh_from_db()
            note = booking.outcome_note
            if cancelling is not None:
                cancelling.refresh_from_db()
                note = cancellation_note_for_people(cancelling.outcome_note)
            level = messages.WARNING if outcome in ("unknown", "busy") else messages.SUCCESS
            self.message_user(
                request,
                gettext("%(booking)s: %(outcome)s, now %(status)s%(note)s")
                % {
                    "booking": booking.booking_reference or booking.id,
                    "outcome": CHECK_OUTCOMES.get(outcome, outcome),
                    "status": booking.get_status_display(),
                    "note": f" ({note})" if note else "",
                },
                level,
            )
