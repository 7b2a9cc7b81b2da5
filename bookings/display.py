"""What the panel shows of bookings, for people.

A failed booking's reason: it is stored as `<code>: <the supplier's message>` in English
(bookings/services/recording.py); the panel shows what the code means in the reader's language
(what was refunded is in the booking's money movements), and the stored text as it is when the
code is not one we know.

The booking page (docs/booking-page.md), assembled from a booking and the rows around it: the
itinerary and the passengers (bookings/itinerary.py) and their tickets, the client and the
client's price, the money that moved, the fare's conditions and the booking's timeline. Plain
data for the template; the functions read, never write. Instants (a payment, an e-mail, a
deadline) are São Paulo time, labelled."""

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from django.db.models import F, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from agencies.models import Team
from bookings.emails import credit_expiry_for_people, service_lines
from bookings.itinerary import Passenger, Slice, erased, itinerary, passengers
from bookings.models import (
    Booking,
    BookingCancellation,
    BookingChangeOffer,
    BookingEmail,
    BookingPassenger,
    BookingServicesPurchase,
)
from core.i18n import SAO_PAULO, date_for_people, sao_paulo_time_for_people, stored_text_for_people
from core.money import money_display
from wallet.display import MovementBooking
from wallet.models import Transaction
from webhooks.models import Delivery, Event, EventType

# --- Failure reasons ----------------------------------------------------------------------------


REASONS = {
    "issuance_failed": gettext_noop("The airline could not issue the tickets."),
    "tickets_not_issued": gettext_noop("The airline could not issue the tickets."),
    "supplier_unavailable": gettext_noop("The flight supplier was unavailable."),
    "supplier_error": gettext_noop("The flight supplier refused the order."),
    "timeout": gettext_noop("The flight supplier did not answer in time."),
    "offer_not_found": gettext_noop("The airline no longer has this offer."),
    "offer_expired": gettext_noop("The offer expired at the airline."),
    "payment_amount_mismatch": gettext_noop("The airline's price changed."),
    "invalid_passenger": gettext_noop("The airline refused the passengers' data."),
    "supplier_order_absent": gettext_noop("The flight supplier has no order for this booking."),
}


# Stored as "<code>: <the supplier's message>".
_KNOWN = [(re.compile(rf"{code}: .*", re.S), message) for code, message in REASONS.items()]


def failure_reason_for_people(stored: str) -> str:
    return stored_text_for_people(stored or "", _KNOWN)


# --- Client -------------------------------------------------------------------------------------


@dataclass
class ClientSummary:
    id: str
    name: str
    email: str
    erased: bool


def client_summary(booking: Booking) -> ClientSummary:
    client = booking.client
    gone = erased(client.full_name) or client.email.endswith("@erased.invalid")
    return ClientSummary(
        id=client.id,
        name=_("[erased]") if gone else client.full_name,
        email="" if gone else client.email,
        erased=gone,
    )


# --- Money --------------------------------------------------------------------------------------


@dataclass
class Movement:
    id: str
    kind: str  # "payment" or "refund"
    label: str
    value: Decimal  # the transaction's amount (positive)
    amount: str  # "-R$ 565,23" for a debit
    when: str
    at: datetime


@dataclass
class Money:
    client_price: str  # what the agency's customer pays
    cost: str  # what the wallet pays (base_cost_brl)
    markup: str
    fee: str
    margin: str  # markup + fee
    airline_total: str  # the airline's fare in its currency
    airline_base: str
    airline_taxes: str
    exchange_rate: str
    # The FX margin in exchange_rate and the reference it was added to ("" when none).
    fx_margin: str
    fx_reference_rate: str
    foreign: bool
    movements: list[Movement]
    paid: str  # what the wallet paid in the end (payments − refunds), "" if nothing moved
    state: str  # a sentence: paid, awaiting payment until…, refunded…


def _rate(value: Decimal) -> str:
    from django.utils.formats import number_format

    return number_format(value.normalize(), use_l10n=True)


def _percent(value: Decimal) -> str:
    from django.utils.formats import number_format

    return f"{number_format(value, decimal_pos=2, use_l10n=True)}\N{NO-BREAK SPACE}%"


def movements(booking: Booking) -> list[Movement]:
    # The booking's own movements, those of the extras bought after it (their `bsv_`) and of
    # the changes of its flights (their `oco_`).
    references = [
        booking.id,
        *booking.services_purchases.values_list("id", flat=True),
        *booking.change_offers.values_list("id", flat=True),
    ]
    rows = Transaction.objects.filter(
        team_id=booking.team_id, live_mode=booking.live_mode, reference_id__in=references
    ).order_by("created_at", "id")
    result = []
    for t in rows:
        debit = t.type == Transaction.Type.DEBIT
        result.append(
            Movement(
                id=t.id,
                kind="payment" if debit else "refund",
                label=_movement_label(t.reference_type, debit=debit),
                value=t.amount,
                amount=money_display(t.amount, t.currency, negative=debit),
                when=sao_paulo_time_for_people(t.created_at),
                at=t.created_at,
            )
        )
    return result


def _movement_label(reference_type: str, *, debit: bool) -> str:
    if reference_type == Transaction.ReferenceType.BOOKING_CHANGE:
        return _("Flight change paid from the wallet") if debit else _("Flight change refunded")
    if debit and reference_type == Transaction.ReferenceType.BOOKING_SERVICES:
        return _("Extras paid from the wallet")
    return _("Paid from the wallet") if debit else _("Refunded to the wallet")


def money(booking: Booking, moved: list[Movement] | None = None) -> Money:
    moved = movements(booking) if moved is None else moved
    payments = [m for m in moved if m.kind == "payment"]
    refunds = [m for m in moved if m.kind == "refund"]
    paid = sum((m.value for m in payments), Decimal("0.00"))
    refunded = sum((m.value for m in refunds), Decimal("0.00"))
    if refunds:
        state = _("Paid %(paid)s, refunded %(refunded)s on %(when)s.") % {
            "paid": money_display(paid),
            "refunded": money_display(refunded),
            "when": refunds[-1].when,
        }
    elif payments:
        state = _("Paid from the wallet on %(when)s.") % {"when": payments[0].when}
    elif booking.status == Booking.Status.PENDING:
        if booking.payment_required_by:
            state = _("Awaiting payment: pay by %(when)s or the hold expires.") % {
                "when": sao_paulo_time_for_people(booking.payment_required_by)
            }
        else:
            state = _("Awaiting payment.")
    else:
        state = _("Nothing was charged.")
    currency = booking.total_currency
    return Money(
        client_price=money_display(booking.client_amount),
        cost=money_display(booking.base_cost_brl),
        markup=money_display(booking.markup_amount),
        fee=money_display(booking.fee_amount),
        margin=money_display(booking.markup_amount + booking.fee_amount),
        airline_total=money_display(booking.total_amount, currency),
        airline_base=money_display(booking.base_amount, currency),
        airline_taxes=money_display(booking.tax_amount, currency),
        exchange_rate=_rate(booking.exchange_rate),
        fx_margin=_percent(booking.fx_margin_percent) if booking.fx_margin_percent else "",
        fx_reference_rate=_rate(booking.fx_reference_rate or booking.exchange_rate),
        foreign=currency != "BRL",
        movements=moved,
        paid=money_display(paid - refunded) if moved else "",
        state=state,
    )


# --- Conditions and deadlines -------------------------------------------------------------------


@dataclass
class Condition:
    label: str
    text: str
    allowed: bool


def _condition_text(condition: dict | None) -> tuple[str, bool]:
    condition = condition or {}
    if not condition.get("allowed"):
        return _("Not allowed"), False
    penalty = condition.get("penalty_amount")
    if penalty in (None, "") or Decimal(str(penalty)) == 0:
        return _("Allowed, without penalty"), True
    amount = money_display(Decimal(str(penalty)), condition.get("penalty_currency") or "BRL")
    return _("Allowed, with a penalty of %(amount)s") % {"amount": amount}, True


def conditions(booking: Booking) -> list[Condition]:
    raw = booking.conditions or {}
    result = []
    for key, label in (
        ("refund_before_departure", _("Refund before departure")),
        ("change_before_departure", _("Change before departure")),
    ):
        text, allowed = _condition_text(raw.get(key))
        result.append(Condition(label=label, text=text, allowed=allowed))
    return result


@dataclass
class Deadline:
    label: str
    when: str
    passed: bool


def deadlines(booking: Booking, *, now: datetime | None = None) -> list[Deadline]:
    """A hold's deadlines, while it waits for payment (afterwards they no longer apply)."""
    if booking.status != Booking.Status.PENDING:
        return []
    now = now or timezone.now()
    result = []
    for label, value in (
        (_("Pay by"), booking.payment_required_by),
        (_("Price guaranteed until"), booking.price_guarantee_expires_at),
    ):
        if value is not None:
            result.append(
                Deadline(label=label, when=sao_paulo_time_for_people(value), passed=value <= now)
            )
    return result


# --- Timeline -----------------------------------------------------------------------------------


EVENT_LABELS = {
    EventType.BOOKING_CREATED: gettext_lazy("Booking created"),
    EventType.BOOKING_CONFIRMED: gettext_lazy("Booking confirmed (paid)"),
    EventType.BOOKING_TICKETED: gettext_lazy("Tickets issued"),
    EventType.BOOKING_CANCELLED: gettext_lazy("Booking cancelled"),
    EventType.BOOKING_EXPIRED: gettext_lazy("Booking expired"),
    EventType.BOOKING_FAILED: gettext_lazy("Booking failed"),
    EventType.BOOKING_UPDATED: gettext_lazy("Booking updated"),
    EventType.BOOKING_AIRLINE_CHANGE_DETECTED: gettext_lazy("Airline changed the flights"),
}
# When several rows share one instant (one transaction writes them): the order of the states
# their object is in, each change before its `booking.updated` twin.
_STATUS_ORDER: dict[str | None, int] = {
    Booking.Status.PENDING: 0,
    Booking.Status.CONFIRMED: 1,
    Booking.Status.TICKETED: 2,
}


def instant_for_people(value: datetime | None) -> str:
    """An instant of the timeline in São Paulo time with seconds (rows a second apart)."""
    if value is None:
        return ""
    local = timezone.localtime(value, SAO_PAULO)
    return f"{date_for_people(local)}, {local:%H:%M:%S}"


@dataclass
class DeliveryState:
    delivery_id: int
    endpoint: str
    status: str  # pending, succeeded, failed
    label: str
    attempts: int
    endpoint_id: str = ""
    # Pending, but its webhook is deactivated: it waits for the reactivation, not for a time.
    held: bool = False


@dataclass
class Entry:
    at: datetime
    when: str  # São Paulo time with seconds
    kind: str  # "event", "email", "payment", "refund"
    title: str
    detail: str = ""
    code: str = ""  # the event's type, the e-mail's kind
    object_id: str = ""
    deliveries: list[DeliveryState] = field(default_factory=list)
    order: tuple = ()


def booking_events(booking: Booking):
    """The booking's events (its id in `data.object`), narrowed by team, mode and time first."""
    return Event.objects.filter(
        team_id=booking.team_id,
        live_mode=booking.live_mode,
        type__startswith="booking.",
        created_at__gte=booking.created_at - timedelta(minutes=1),
        data_object__id=booking.id,
    ).order_by("created_at")


def _delivery_state(delivery: Delivery) -> DeliveryState:
    held = delivery.status == Delivery.Status.PENDING and not delivery.endpoint.active
    if delivery.status == Delivery.Status.SUCCEEDED:
        label = _("Delivered")
    elif delivery.status == Delivery.Status.FAILED:
        label = _("Failed")
    elif held:
        label = _("Waiting for the webhook to be reactivated")
    elif delivery.next_attempt_at:
        label = _("Pending: next attempt %(when)s") % {
            "when": sao_paulo_time_for_people(delivery.next_attempt_at)
        }
    else:
        label = _("Pending")
    return DeliveryState(
        delivery_id=delivery.pk,
        endpoint=delivery.endpoint.url,
        status=delivery.status,
        label=label,
        attempts=delivery.attempt_count,
        endpoint_id=delivery.endpoint_id,
        held=held,
    )


def timeline(booking: Booking, moved: list[Movement] | None = None) -> list[Entry]:
    """Everything that happened to the booking, oldest first: its events (with each webhook
    delivery's state), the e-mails (sent, or waiting to be sent) and the money that moved."""
    entries = []
    events = list(booking_events(booking).prefetch_related("deliveries__endpoint"))
    for event in events:
        states = [_delivery_state(d) for d in event.deliveries.all()]
        entries.append(
            Entry(
                at=event.created_at,
                when=instant_for_people(event.created_at),
                kind="event",
                title=str(EVENT_LABELS.get(event.type, event.type)),
                code=event.type,
                object_id=event.id,
                detail="" if states else _("No webhook subscribed: nothing to deliver."),
                deliveries=sorted(states, key=lambda s: s.delivery_id),
                order=(
                    1,
                    _STATUS_ORDER.get((event.data_object or {}).get("status"), 3),
                    event.type == "booking.updated",
                ),
            )
        )
    for email in booking.emails.all():
        sent = email.sent_at is not None
        entries.append(
            Entry(
                at=email.sent_at or email.created_at,
                when=instant_for_people(email.sent_at or email.created_at),
                kind="email",
                title=_("E-mail: %(kind)s") % {"kind": email.get_kind_display()},
                detail=_("Sent") if sent else _("Waiting to be sent"),
                code=email.kind,
                order=(2, list(BookingEmail.Kind.values).index(email.kind)),
            )
        )
    for movement in movements(booking) if moved is None else moved:
        entries.append(
            Entry(
                at=movement.at,
                when=instant_for_people(movement.at),
                kind=movement.kind,
                title=f"{movement.label}: {movement.amount}",
                object_id=movement.id,
                order=(0, 0 if movement.kind == "payment" else 1),
            )
        )
    return sorted(entries, key=lambda e: (e.at, e.order))


@dataclass
class CancellationSummary:
    """The booking's latest cancellation at the supplier, as its page shows it."""

    status: str  # the status label
    refund: str  # "US$ 377,50 to the supplier balance", "—" when unknown
    penalty: str  # what the airline keeps, "" when not stated
    wallet_credit: str  # what the wallet was (or will be) credited, in BRL
    credited: bool  # whether it was (confirmed), or only would be
    credits: list[str]  # the airline credits: "Voucher: US$ 755,00, code 047…, valid until …"
    when: str  # "Confirmed on …" / "Quote valid until …", São Paulo time labelled
    quoted: str  # the first quote's refund when the confirmed one differs, else ""
    note: str  # why it is unknown, for support


REFUND_TO_LABELS = {
    "balance": gettext_lazy("to the supplier balance"),
    "original_form_of_payment": gettext_lazy("to the original form of payment"),
    "arc_bsp_cash": gettext_lazy("to the original form of payment"),
    "card": gettext_lazy("to the original form of payment"),
    "voucher": gettext_lazy("as a voucher with the airline"),
    "airline_credits": gettext_lazy("as credits with the airline"),
    "awaiting_payment": gettext_lazy("nothing: the supplier was never paid"),
}
NOT_CASH = ("voucher", "airline_credits")


def _credit_text(credit: dict) -> str:
    value = money_display(Decimal(credit["credit_amount"]), credit["credit_currency"])
    text = f"{credit['credit_name'] or _('Airline credit')}: {value}"
    if credit.get("credit_code"):
        text += ", " + _("code %(code)s") % {"code": credit["credit_code"]}
    if credit.get("expires_at"):
        text += ", " + _("valid until %(date)s") % {"date": credit_expiry_for_people(credit)}
    return text


def _refund_text(cancellation: BookingCancellation) -> str:
    if cancellation.refund_amount is None:
        return "—"
    amount = money_display(cancellation.refund_amount, cancellation.refund_currency)
    return f"{amount} {REFUND_TO_LABELS.get(cancellation.refund_to, cancellation.refund_to)}"


def _penalty_text(cancellation: BookingCancellation) -> str:
    if cancellation.penalty_amount is None or cancellation.refund_to == "awaiting_payment":
        return ""
    return money_display(cancellation.penalty_amount, cancellation.penalty_currency)


def cancellation_summary(booking: Booking) -> CancellationSummary | None:
    cancellation = booking.cancellations.order_by("-created_at", "-id").first()
    if cancellation is None:
        return None
    Status = BookingCancellation.Status
    when = ""
    if cancellation.status == Status.CONFIRMED and cancellation.confirmed_at:
        when = _("Confirmed on %(when)s") % {
            "when": sao_paulo_time_for_people(cancellation.confirmed_at)
        }
    elif cancellation.status == Status.QUOTED and cancellation.expires_at:
        when = _("Quote valid until %(when)s") % {
            "when": sao_paulo_time_for_people(cancellation.expires_at)
        }
    quoted = ""
    if (
        cancellation.status == Status.CONFIRMED
        and cancellation.quoted_refund_amount is not None
        and cancellation.quoted_refund_amount != cancellation.refund_amount
    ):
        quoted = money_display(cancellation.quoted_refund_amount, cancellation.refund_currency)
    status = cancellation.status
    if (
        status == Status.QUOTED
        and cancellation.expires_at
        and cancellation.expires_at <= timezone.now()
    ):
        status = Status.EXPIRED
    return CancellationSummary(
        status=str(Status(status).label),
        refund=_refund_text(cancellation),
        penalty=_penalty_text(cancellation),
        wallet_credit=money_display(cancellation.wallet_credit_amount),
        credited=cancellation.status == Status.CONFIRMED,
        credits=[_credit_text(c) for c in cancellation.airline_credits],
        when=when,
        quoted=quoted,
        note=cancellation_note_for_people(cancellation.outcome_note),
    )


# Why a cancellation's outcome is (or was) unknown: stored in English as written when it
# happened (bookings/services/cancellations.py), shown in the reader's language.
CANCELLATION_NOTES = [
    (
        re.compile(r"the order is cancelled; the supplier has not said the refund yet"),
        gettext_noop("The order is cancelled; the supplier has not stated the refund yet."),
    ),
    (
        re.compile(r"the order is not cancelled yet; waiting for the grace period"),
        gettext_noop("The order is not cancelled yet; checking again until the grace period ends."),
    ),
    (
        re.compile(r"the supplier did not cancel the order"),
        gettext_noop("The supplier did not cancel the order."),
    ),
    (
        re.compile(r"the confirming request ended before the supplier answered"),
        gettext_noop("The confirmation ended before the supplier answered."),
    ),
    (
        re.compile(r"the confirmation's answer could not be handled"),
        gettext_noop("The supplier's answer to the confirmation could not be read."),
    ),
    (
        re.compile(r"check failed, (?P<code>[a-z_]+): .*", re.S),
        gettext_noop("Checking with the supplier failed (%(code)s); it is tried again."),
    ),
    (
        re.compile(r"supplier_outcome_unknown: .*", re.S),
        gettext_noop("The supplier's answer to the confirmation was lost."),
    ),
    (
        re.compile(r"order_already_cancelled: .*", re.S),
        gettext_noop("The supplier says the order is already cancelled: its refund is checked."),
    ),
    (
        re.compile(r"(?P<code>[a-z_]+): .*", re.S),
        gettext_noop("The supplier's answer to the confirmation was lost (%(code)s)."),
    ),
]


def cancellation_note_for_people(note: str) -> str:
    return stored_text_for_people(note, CANCELLATION_NOTES) if note else ""


def cancellation_effect(booking: Booking, cancellation: BookingCancellation) -> str:
    """What confirming this quote will do, in sentences, one a line (the panel's cancel
    confirmation page, and the action's audit entry): the supplier's refund and where it goes,
    the penalty, the airline credits, what the wallet is credited in BRL, how long the quote
    holds and, when it differs, what the fare's conditions promised."""
    debited = cancellation.penalty_amount is not None  # a penalty is stated only for a paid one
    lines = []
    if cancellation.refund_to == "awaiting_payment":
        if not debited or not cancellation.wallet_credit_amount:
            return str(_("Cancelled at no cost: it was never paid."))
        lines.append(
            _("The airline was not paid yet: the wallet gets back all it was debited, %(brl)s.")
            % {"brl": money_display(cancellation.wallet_credit_amount)}
        )
    elif cancellation.refund_to in NOT_CASH:
        lines.append(
            _(
                "The airline refunds %(amount)s as credit with the airline, not money: "
                "the wallet is credited nothing."
            )
            % {"amount": money_display(cancellation.refund_amount, cancellation.refund_currency)}
        )
        lines += [
            _("Airline credit: %(credit)s.") % {"credit": _credit_text(c)}
            for c in cancellation.airline_credits
        ]
    elif not cancellation.refund_amount:
        lines.append(_("Cancelled without refund (the airline refunds nothing)."))
    else:
        lines.append(_("The airline refunds %(refund)s.") % {"refund": _refund_text(cancellation)})
        lines.append(
            _("The wallet is refunded %(brl)s.")
            % {"brl": money_display(cancellation.wallet_credit_amount)}
        )
    if debited and cancellation.refund_to != "awaiting_payment":
        penalty = _penalty_text(cancellation)
        if penalty and cancellation.penalty_amount:
            lines.append(_("Penalty kept by the airline: %(penalty)s.") % {"penalty": penalty})
        promised = _promised_refund(booking)
        if promised is not None and promised != cancellation.refund_amount:
            lines.append(
                _("The fare's conditions promised %(amount)s: the airline's quote is what counts.")
                % {"amount": money_display(promised, booking.total_currency)}
            )
    if debited and cancellation.refund_to != "awaiting_payment":
        moved = movements(booking)
        paid = sum((m.value for m in moved if m.kind == "payment"), Decimal(0))
        paid -= sum((m.value for m in moved if m.kind == "refund"), Decimal(0))
        lost = paid - (cancellation.wallet_credit_amount or Decimal(0))
        if lost > 0:
            lines.append(
                _("Of the %(paid)s the wallet paid, %(lost)s is not given back.")
                % {"paid": money_display(paid), "lost": money_display(lost)}
            )
    if cancellation.expires_at:
        lines.append(
            _("Quote valid until %(when)s.")
            % {"when": sao_paulo_time_for_people(cancellation.expires_at)}
        )
    if booking.live_mode:
        lines.append(_("The travellers are e-mailed that the booking is cancelled."))
    else:
        lines.append(_("Test mode: the live balance does not change."))
        lines.append(_("Test mode: only the agency's own addresses are e-mailed."))
    return "\n".join(str(line) for line in lines)


def cancelled_message(booking: Booking) -> str:
    """The panel's message once a booking is cancelled: its locator and what the wallet got."""
    confirmed = (
        booking.cancellations.filter(status=BookingCancellation.Status.CONFIRMED)
        .order_by("-confirmed_at", "-id")
        .first()
    )
    credit = confirmed.wallet_credit_amount if confirmed else None
    reference = booking.booking_reference or booking.id
    if credit:
        return _("%(booking)s cancelled; %(brl)s refunded to the wallet.") % {
            "booking": reference,
            "brl": money_display(credit),
        }
    return _("%(booking)s cancelled; nothing refunded to the wallet.") % {"booking": reference}


def _promised_refund(booking: Booking) -> Decimal | None:
    """What the fare's conditions stored at search promised back (None if no refund)."""
    condition = booking.conditions.get("refund_before_departure") or {}
    if not condition.get("allowed"):
        return None
    penalty = Decimal(condition.get("penalty_amount") or "0")
    return max(booking.total_amount - penalty, Decimal("0.00"))


@dataclass
class AirlineChangeSummary:
    """A change the airline made to the flights, as the booking's page shows it: each flight
    as booked and as changed (local times), and what was done about it."""

    id: str
    detected: str  # when it was detected, São Paulo time
    state: str  # "Unanswered" / "Accepted on …" / …
    unanswered: bool
    before: list[Slice]
    after: list[Slice]
    actions: str  # what the airline allows: "accept, cancel"


ACTION_LABELS = {
    "accept": gettext_lazy("accept"),
    "cancel": gettext_lazy("cancel"),
    "change": gettext_lazy("change"),
    "update": gettext_lazy("update"),
}


@dataclass
class FlightChangeSummary:
    """A change of the flights the agency asked for and the airline made (a confirmed change
    offer, docs/after-sale.md), as the booking's page lists it."""

    id: str
    confirmed: str  # when, São Paulo time
    route: str  # the new flights' route: "GRU → BSB"
    client_price: str  # the agency's price of the change, R$ (negative: given back)
    wallet: str  # what the wallet paid (-) or got back (+), R$
    penalty: str  # the airline's penalty in its currency, "" when none


def flight_change_summaries(booking: Booking) -> list[FlightChangeSummary]:
    confirmed = booking.change_offers.filter(status="confirmed").order_by("-confirmed_at", "-id")
    return [
        FlightChangeSummary(
            id=offer.id,
            confirmed=sao_paulo_time_for_people(offer.confirmed_at) if offer.confirmed_at else "",
            route=_route(itinerary(_Slices(offer.slices.get("add") or []))),  # type: ignore[arg-type]
            client_price=money_display(offer.client_change_amount),
            wallet=money_display(-offer.wallet_amount),
            penalty=money_display(offer.penalty_amount, offer.penalty_currency)
            if offer.penalty_amount
            else "",
        )
        for offer in confirmed
    ]


@dataclass
class ExtrasSummary:
    """Extras bought at one time, as the booking's page lists them: those bought with the
    booking, or one purchase after the sale (`bsv_`, docs/extras.md)."""

    id: str  # the purchase's id, "" for those bought with the booking
    when: str  # "with the booking", or the purchase's time (São Paulo)
    lines: list[dict]  # what, for whom, on which flights, the client's price
    client_price: str  # R$, all of them
    wallet: str  # what the wallet paid for them, R$
    state: str  # the purchase's status when not confirmed ("Outcome unknown"), else ""


def extras_summaries(booking: Booking, names: dict[str, str]) -> list[ExtrasSummary]:
    with_booking = [s for s in booking.services if not s.get("purchase_id")]
    summaries = []
    if with_booking:
        summaries.append(
            ExtrasSummary(
                id="",
                when=_("With the booking"),
                lines=service_lines(booking, with_booking, names),
                client_price=money_display(
                    sum((Decimal(s["client_amount"]) for s in with_booking), Decimal(0))
                ),
                wallet=money_display(
                    sum((Decimal(s["base_cost_brl"]) for s in with_booking), Decimal(0))
                ),
                state="",
            )
        )
    for purchase in booking.services_purchases.order_by("created_at", "id"):
        summaries.append(
            ExtrasSummary(
                id=purchase.id,
                when=sao_paulo_time_for_people(purchase.created_at),
                lines=service_lines(booking, purchase.services, names),
                client_price=money_display(purchase.client_amount),
                wallet=money_display(purchase.base_cost_brl),
                state=""
                if purchase.status == purchase.Status.CONFIRMED
                else str(purchase.get_status_display()),
            )
        )
    return summaries


def airline_change_summaries(booking: Booking) -> list[AirlineChangeSummary]:
    summaries = []
    for change in booking.airline_changes.order_by("-created_at", "-id"):
        unanswered = not change.action_taken
        state = _("Unanswered")
        if not unanswered:
            state = str(change.get_action_taken_display())
            if change.action_taken_at:
                state += f" · {sao_paulo_time_for_people(change.action_taken_at)}"
        summaries.append(
            AirlineChangeSummary(
                id=change.id,
                detected=sao_paulo_time_for_people(change.created_at),
                state=state,
                unanswered=unanswered,
                before=itinerary(_Slices(change.removed)),  # type: ignore[arg-type]
                after=itinerary(_Slices(change.added)),  # type: ignore[arg-type]
                actions=", ".join(str(ACTION_LABELS.get(a, a)) for a in change.available_actions),
            )
        )
    return summaries


@dataclass
class _Slices:
    slices: list[dict]


# --- The page -----------------------------------------------------------------------------------


@dataclass
class BookingPage:
    booking: Booking
    reference: str
    route: str  # "GRU → LIS → GRU"
    first_departure: str
    slices: list[Slice]
    passengers: list[Passenger]
    client: ClientSummary
    money: Money
    conditions: list[Condition]
    deadlines: list[Deadline]
    timeline: list[Entry]
    erased_at: str  # "" unless the passengers' personal data was erased
    outcome_unknown_since: str
    failure_reason: str  # "" unless it failed: what its code means, in the reader's language
    cancellation: CancellationSummary | None = None  # its latest cancellation at the supplier
    airline_changes: list[AirlineChangeSummary] = field(default_factory=list)
    flight_changes: list[FlightChangeSummary] = field(default_factory=list)
    extras: list[ExtrasSummary] = field(default_factory=list)


def booking_route(slices: list[dict]) -> str:
    """ "GRU → LIS → GRU" from a booking's stored slices (the lists' column: no itinerary built)."""
    codes: list[str] = []
    for slice_ in slices or []:
        for end in (slice_.get("origin"), slice_.get("destination")):
            code = (end or {}).get("iata_code")
            if code and (not codes or codes[-1] != code):
                codes.append(code)
    return " → ".join(codes)


def _route(slices: list[Slice]) -> str:
    codes: list[str] = []
    for slice_ in slices:
        for code in (slice_.origin.code, slice_.destination.code):
            if not codes or codes[-1] != code:
                codes.append(code)
    return " → ".join(codes)


def booking_page(booking: Booking) -> BookingPage:
    people = passengers(booking)
    names = {p.passenger_id: p.name for p in people}
    slices = itinerary(booking, names)
    moved = movements(booking)
    first = slices[0].origin.written if slices and slices[0].origin.moment else ""
    return BookingPage(
        booking=booking,
        reference=booking.booking_reference or booking.id,
        route=_route(slices),
        first_departure=first,
        slices=slices,
        passengers=people,
        client=client_summary(booking),
        money=money(booking, moved),
        conditions=conditions(booking),
        deadlines=deadlines(booking),
        timeline=timeline(booking, moved),
        erased_at=sao_paulo_time_for_people(booking.personal_data_erased_at)
        if booking.personal_data_erased_at
        else "",
        outcome_unknown_since=sao_paulo_time_for_people(booking.outcome_unknown_since)
        if booking.outcome_unknown_since
        else "",
        failure_reason=failure_reason_for_people(booking.failure_reason),
        cancellation=cancellation_summary(booking),
        airline_changes=airline_change_summaries(booking),
        flight_changes=flight_change_summaries(booking),
        extras=extras_summaries(booking, names),
    )


# --- The booking behind a wallet movement ---------------------------------------------------------


def _movement_booking_rows(model, booking: str, ids: list[str], scope: dict) -> QuerySet:
    """`(reference id, locator, slices, erased at, lead passenger's names)` of `model`'s rows
    whose id is in `ids`; `booking` is the path from `model` to its booking ("" for Booking)."""
    lead = BookingPassenger.objects.filter(booking=OuterRef(f"{booking}pk")).order_by("position")
    return (
        model.objects.filter(pk__in=ids, **{f"{booking}{k}": v for k, v in scope.items()})
        .annotate(
            ref=F("pk"),
            locator=F(f"{booking}booking_reference"),
            route_slices=F(f"{booking}slices"),
            erased_at=F(f"{booking}personal_data_erased_at"),
            lead_given=Subquery(lead.values("given_name")[:1]),
            lead_family=Subquery(lead.values("family_name")[:1]),
        )
        .order_by()
        .values_list("ref", "locator", "route_slices", "erased_at", "lead_given", "lead_family")
    )


def ledger_bookings(
    *, team: Team, live_mode: bool, reference_ids: Collection[str]
) -> dict[str, MovementBooking]:
    """The booking behind each wallet movement whose reference is one of the bookings' (a
    booking's id, a change offer's, an extras purchase's), by reference id, as the booking's
    page shows it: the locator, the lead passenger ("[erased]" once retention erased the
    passengers) and the route. One query for them all (the wallet's statement asks by
    settings.WALLET_LEDGER_BOOKINGS: the wallet sits below the bookings)."""
    ids = sorted(set(reference_ids))
    if not ids:
        return {}
    scope = {"team": team, "live_mode": live_mode}
    rows = _movement_booking_rows(Booking, "", ids, scope).union(
        _movement_booking_rows(BookingChangeOffer, "booking__", ids, scope),
        _movement_booking_rows(BookingServicesPurchase, "booking__", ids, scope),
        all=True,
    )
    found = {}
    for ref, locator, slices, erased_at, given, family in rows:
        gone = erased_at is not None or erased(given)
        lead = _("[erased]") if gone else f"{given or ''} {family or ''}".strip()
        found[ref] = MovementBooking(
            locator=locator or "", lead_passenger=lead, route=booking_route(slices)
        )
    return found
