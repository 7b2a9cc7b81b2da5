"""What the panel's booking page shows (docs/booking-page.md), assembled from a booking and the
rows around it: the itinerary with each airport's local times, the passengers and their
tickets, the client and the client's price, the money that moved, the fare's conditions and
the booking's timeline. Plain data for the template; the functions read, never write.

Flight times are the airports' own clocks as the airline gives them (naive `2027-01-15T12:20:00`)
and are printed as they are; instants (a payment, an e-mail, a deadline) are São Paulo time,
labelled."""

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from bookings.display import failure_reason_for_people
from bookings.models import Booking, BookingEmail
from bookings.retention import ERASED
from core.i18n import SAO_PAULO, date_for_people, datetime_for_people, sao_paulo_time_for_people
from core.money import money_display
from flights import airports
from flights.models import CabinClass, PassengerType
from wallet.models import Transaction
from webhooks.models import Delivery, Event, EventType

CABINS = dict(CabinClass.choices)
PASSENGER_TYPES = dict(PassengerType.choices)
EVENT_LABELS = {
    EventType.BOOKING_CREATED: gettext_lazy("Booking created"),
    EventType.BOOKING_CONFIRMED: gettext_lazy("Booking confirmed (paid)"),
    EventType.BOOKING_TICKETED: gettext_lazy("Tickets issued"),
    EventType.BOOKING_CANCELLED: gettext_lazy("Booking cancelled"),
    EventType.BOOKING_EXPIRED: gettext_lazy("Booking expired"),
    EventType.BOOKING_FAILED: gettext_lazy("Booking failed"),
    EventType.BOOKING_UPDATED: gettext_lazy("Booking updated"),
}
# When several rows share one instant (one transaction writes them): the order of the states
# their object is in, each change before its `booking.updated` twin.
_STATUS_ORDER: dict[str | None, int] = {
    Booking.Status.PENDING: 0,
    Booking.Status.CONFIRMED: 1,
    Booking.Status.TICKETED: 2,
}
_ISO_DURATION = re.compile(
    r"^P(?:(?P<days>\d+)D)?(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?)?$"
)


# --- Small formatters ---------------------------------------------------------------------------


def duration_minutes(iso: str | None) -> int | None:
    """`PT12H20M` → 740; None for what is not an ISO 8601 duration of days, hours, minutes."""
    match = _ISO_DURATION.match(iso or "")
    if not match or not any(match.groupdict().values()):
        return None
    parts = {k: int(v or 0) for k, v in match.groupdict().items()}
    return parts["days"] * 1440 + parts["hours"] * 60 + parts["minutes"]


def duration_for_people(minutes: int | None) -> str:
    """740 → "12 h 20 min" (Portuguese) / "12h 20m" (English)."""
    if minutes is None:
        return ""
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return _("%(minutes)d min") % {"minutes": minutes}
    return _("%(hours)d h %(minutes)02d min") % {"hours": hours, "minutes": minutes}


def instant_for_people(value: datetime | None) -> str:
    """An instant of the timeline in São Paulo time with seconds (rows a second apart)."""
    if value is None:
        return ""
    local = timezone.localtime(value, SAO_PAULO)
    return f"{date_for_people(local)}, {local:%H:%M:%S}"


def local_time(value: str | None) -> datetime | None:
    """A supplier's naive local time; None if missing or unreadable."""
    try:
        moment = datetime.fromisoformat(str(value))
    except (TypeError, ValueError):
        return None
    return moment.replace(tzinfo=None)


def _absolute(moment: datetime | None, airport_code: str) -> datetime | None:
    """The instant a local time at an airport stands for (to measure connections)."""
    place = airports.airport(airport_code)
    if moment is None or place is None:
        return None
    return moment.replace(tzinfo=ZoneInfo(place.time_zone))


# --- Itinerary ----------------------------------------------------------------------------------


@dataclass
class Stop:
    """One end of a segment: the airport and the local time there."""

    code: str
    name: str
    city: str
    terminal: str | None
    moment: datetime | None  # naive: the airport's own clock
    time: str  # "12:20"
    date: str  # "15 de janeiro de 2027"
    written: str  # "15 de janeiro de 2027, 12:20"


@dataclass
class Segment:
    origin: Stop
    destination: Stop
    days_later: int  # the arrival's local date after the departure's
    flight: str  # "TP 1234"
    carrier: str  # the marketing carrier's name
    operated_by: str  # "" when the marketing carrier flies it
    aircraft: str
    cabin: str
    baggage: list[str]
    duration: str
    kind: str = "segment"


@dataclass
class Connection:
    airport: str  # "LHR"
    city: str
    wait: str  # "2 h 25 min"
    change_of_airport: bool
    kind: str = "connection"


@dataclass
class Slice:
    title: str  # "Ida", "Volta", "Trecho 2"
    origin: Stop
    destination: Stop
    duration: str
    stops: str  # "Direto", "1 conexão"
    fare_brand: str
    legs: list  # Segment and Connection, in order


def _stop(end: dict, moment_text: str | None) -> Stop:
    code = end.get("iata_code", "")
    place = airports.airport(code)
    moment = local_time(moment_text)
    return Stop(
        code=code,
        name=(place.name if place else end.get("name")) or code,
        city=(place.city_name if place else "") or "",
        terminal=end.get("terminal"),
        moment=moment,
        time=f"{moment:%H:%M}" if moment else "",
        date=date_for_people(moment) if moment else "",
        written=datetime_for_people(moment) if moment else "",
    )


def _carrier_flight(carrier: dict | None, number: str | None) -> str:
    code = (carrier or {}).get("iata_code", "")
    return f"{code} {number}".strip() if number else code


def baggage_for_people(baggages: list[dict]) -> str:
    counts = {b.get("type"): int(b.get("quantity") or 0) for b in baggages or []}
    carry_on, checked = counts.get("carry_on", 0), counts.get("checked", 0)
    parts = []
    if carry_on:
        parts.append(
            ngettext("%(count)d carry-on bag", "%(count)d carry-on bags", carry_on)
            % {"count": carry_on}
        )
    else:
        parts.append(_("no carry-on bag"))
    if checked:
        parts.append(
            ngettext("%(count)d checked bag", "%(count)d checked bags", checked)
            % {"count": checked}
        )
    else:
        parts.append(_("no checked bag"))
    return ", ".join(parts)


def _segment(segment: dict, passenger_names: dict[str, str]) -> Segment:
    origin = _stop(segment.get("origin") or {}, segment.get("departing_at"))
    destination = _stop(segment.get("destination") or {}, segment.get("arriving_at"))
    marketing = segment.get("marketing_carrier") or {}
    operating = segment.get("operating_carrier") or {}
    flight = _carrier_flight(marketing, segment.get("marketing_carrier_flight_number"))
    operated_by = ""
    if operating.get("iata_code") and operating.get("iata_code") != marketing.get("iata_code"):
        operating_flight = _carrier_flight(
            operating, segment.get("operating_carrier_flight_number")
        )
        operated_by = _("Operated by %(carrier)s (%(flight)s)") % {
            "carrier": operating.get("name") or operating.get("iata_code"),
            "flight": operating_flight,
        }
    passengers = segment.get("passengers") or []
    cabins = dict.fromkeys(
        str(CABINS.get(p.get("cabin_class"), p.get("cabin_class") or "")) for p in passengers
    )
    baggage_of = {p.get("passenger_id"): baggage_for_people(p.get("baggages")) for p in passengers}
    if len(set(baggage_of.values())) <= 1:
        baggage = list(set(baggage_of.values()))
    else:  # an infant on a lap carries less: said per passenger
        baggage = [f"{passenger_names.get(pid, pid)}: {text}" for pid, text in baggage_of.items()]
    days_later = 0
    if origin.moment and destination.moment:
        days_later = (destination.moment.date() - origin.moment.date()).days
    aircraft = segment.get("aircraft") or {}
    return Segment(
        origin=origin,
        destination=destination,
        days_later=days_later,
        flight=flight,
        carrier=marketing.get("name") or marketing.get("iata_code", ""),
        operated_by=operated_by,
        aircraft=aircraft.get("name") or aircraft.get("iata_code") or "",
        cabin=", ".join(c for c in cabins if c),
        baggage=baggage,
        duration=duration_for_people(duration_minutes(segment.get("duration"))),
    )


def _connection(arrived: Segment, leaving: Segment) -> Connection:
    landed = _absolute(arrived.destination.moment, arrived.destination.code)
    departs = _absolute(leaving.origin.moment, leaving.origin.code)
    wait = ""
    if landed and departs:
        wait = duration_for_people(int((departs - landed).total_seconds() // 60))
    return Connection(
        airport=arrived.destination.code,
        city=arrived.destination.city,
        wait=wait,
        change_of_airport=arrived.destination.code != leaving.origin.code,
    )


def _slice_title(index: int, count: int, booking_slices: list[dict]) -> str:
    if count == 2:
        first, second = booking_slices
        if (first.get("origin") or {}).get("iata_city_code") == (
            (second.get("destination") or {}).get("iata_city_code")
        ):
            return _("Outbound") if index == 0 else _("Return")
    if count == 1:
        return _("Flight")
    return _("Leg %(number)d") % {"number": index + 1}


def itinerary(booking: Booking, passenger_names: dict[str, str] | None = None) -> list[Slice]:
    """The booking's slices, each with its segments and the connections between them."""
    names = passenger_names or {}
    slices = booking.slices or []
    result = []
    for index, raw in enumerate(slices):
        segments = [_segment(s, names) for s in raw.get("segments") or []]
        legs: list = []
        for position, segment in enumerate(segments):
            if position:
                legs.append(_connection(segments[position - 1], segment))
            legs.append(segment)
        connections = len(segments) - 1
        origin = segments[0].origin if segments else _stop(raw.get("origin") or {}, None)
        destination = (
            segments[-1].destination if segments else _stop(raw.get("destination") or {}, None)
        )
        result.append(
            Slice(
                title=_slice_title(index, len(slices), slices),
                origin=origin,
                destination=destination,
                duration=duration_for_people(duration_minutes(raw.get("duration"))),
                stops=_("Direct")
                if connections <= 0
                else ngettext("%(count)d connection", "%(count)d connections", connections)
                % {"count": connections},
                fare_brand=raw.get("fare_brand_name") or "",
                legs=legs,
            )
        )
    return result


# --- Passengers and client ----------------------------------------------------------------------


def erased(value: str | None) -> bool:
    return value == ERASED


@dataclass
class Passenger:
    passenger_id: str
    name: str
    type: str
    email: str
    phone: str
    born_on: str
    tickets: list[str]
    erased: bool


def passengers(booking: Booking) -> list[Passenger]:
    tickets: dict[str, list[str]] = {}
    for document in booking.documents.all():
        tickets.setdefault(document.passenger_id, []).append(document.unique_identifier)
    marker = _("[erased]")
    result = []
    for p in booking.passengers.all():
        gone = erased(p.given_name) or booking.personal_data_erased_at is not None
        result.append(
            Passenger(
                passenger_id=p.passenger_id,
                name=marker if gone else f"{p.given_name} {p.family_name}".strip(),
                type=str(PASSENGER_TYPES.get(p.type, p.type)),
                email="" if gone or erased(p.email) else p.email,
                phone="" if gone or erased(p.phone_number) else p.phone_number,
                born_on=date_for_people(p.born_on) if p.born_on and not gone else "",
                tickets=sorted(tickets.get(p.passenger_id, [])),
                erased=gone,
            )
        )
    return result


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
    foreign: bool
    movements: list[Movement]
    paid: str  # what the wallet paid in the end (payments − refunds), "" if nothing moved
    state: str  # a sentence: paid, awaiting payment until…, refunded…


def _rate(value: Decimal) -> str:
    from django.utils.formats import number_format

    return number_format(value.normalize(), use_l10n=True)


def movements(booking: Booking) -> list[Movement]:
    rows = Transaction.objects.filter(
        team_id=booking.team_id, live_mode=booking.live_mode, reference_id=booking.id
    ).order_by("created_at", "id")
    result = []
    for t in rows:
        debit = t.type == Transaction.Type.DEBIT
        result.append(
            Movement(
                id=t.id,
                kind="payment" if debit else "refund",
                label=_("Paid from the wallet") if debit else _("Refunded to the wallet"),
                value=t.amount,
                amount=money_display(t.amount, t.currency, negative=debit),
                when=sao_paulo_time_for_people(t.created_at),
                at=t.created_at,
            )
        )
    return result


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


@dataclass
class DeliveryState:
    delivery_id: int
    endpoint: str
    status: str  # pending, succeeded, failed
    label: str
    attempts: int


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
    if delivery.status == Delivery.Status.SUCCEEDED:
        label = _("Delivered")
    elif delivery.status == Delivery.Status.FAILED:
        label = _("Failed")
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
    )
