"""The sandbox supplier: search, orders and cancellations on top of the other modules."""

import dataclasses
import random
import secrets
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from core.money import q
from flights.models import SandboxOrder
from flights.reference import AIRLINES
from flights.suppliers.base import (
    AirlineChange,
    AirlineCredit,
    CancellationQuote,
    FlightSupplier,
    OrderPassenger,
    SearchRequest,
    SeatMap,
    ServiceRequest,
    SupplierError,
    SupplierOffer,
    SupplierOrder,
    SupplierService,
)
from flights.suppliers.order_changes import (
    BookedOrder,
    ChangeSlice,
    SupplierChangeRequest,
    SupplierOrderChange,
)
from flights.suppliers.sandbox import changes, extras, order_changes
from flights.suppliers.sandbox.common import ceil_second, stable_int
from flights.suppliers.sandbox.fares import (
    OFFER_MINUTES,
    QUOTE_MINUTES,
    TARGET_OFFERS,
    OfferBuilder,
    journey_minutes,
    search_seed,
    usd_equivalent,
)
from flights.suppliers.sandbox.network import AirlineJourneys, search_plans
from flights.suppliers.sandbox.orders import (
    QUOTE_PREFIX,
    OrderState,
    book_order,
    cancellation_from,
    check_payment,
    checksum,
    current_order,
    passenger_numbers,
    rebook_order,
    record_cancellation,
    refund_penalty,
    ticketed_state,
    verified_payload,
)
from flights.suppliers.sandbox.scenarios import (
    ANSWER_LOST_FAMILY_NAME,
    CANCEL_ANSWER_LOST_FAMILY_NAME,
    HOLD_ANSWER_LOST_FAMILY_NAME,
    ISSUANCE_FAILURE_FAMILY_NAME,
    ORDER_PENDING_FAMILY_NAME,
    ORDER_PENDING_SECONDS,
    PRICE_CHANGE_FAMILY_NAME,
    QUOTE_EXPIRES_FAMILY_NAME,
    QUOTE_SHORT_SECONDS,
    REFUND_CREDITS_FAMILY_NAME,
    REFUND_DROPS_FAMILY_NAME,
    REFUND_LOWER_FAMILY_NAME,
    REFUND_VOUCHER_FAMILY_NAME,
    SCHEDULE_CHANGE_FAMILY_NAME,
    SERVICES_ANSWER_LOST_FAMILY_NAME,
    SUPPLIER_DOWN_FAMILY_NAME,
    check_search_scenarios,
    issuance_failure,
    outcome_unknown,
    scenario_of,
)


class SandboxSupplier(FlightSupplier):
    name = "sandbox"

    def search(self, request: SearchRequest) -> list[SupplierOffer]:
        if not check_search_scenarios(request):
            return []
        seed = search_seed(request)
        rng = random.Random(seed)
        builder = OfferBuilder(request, seed, timezone.now())
        expires_at = builder.now + timedelta(minutes=rng.randint(*OFFER_MINUTES))
        airlines = [
            AirlineJourneys(rng, code, request.slices, routings)
            for code, routings in search_plans(request)
        ]
        offers: list[SupplierOffer] = []
        # Each airline in turn adds its next best journey (in every brand) until there are
        # enough offers or no journeys left.
        while airlines and len(offers) < TARGET_OFFERS:
            for airline in list(airlines):
                journey = airline.next()
                if journey is None:
                    airlines.remove(airline)
                    continue
                offers.extend(builder.offers(rng, journey, expires_at))
                if len(offers) >= TARGET_OFFERS:
                    break
        offers.sort(key=lambda o: (usd_equivalent(o), journey_minutes(o), o.supplier_offer_id))
        return offers

    def create_order(
        self,
        *,
        offer,
        passengers: list[OrderPassenger],
        instant: bool,
        amount: Decimal,
        currency: str,
        booking_id: str = "",
        services: tuple[ServiceRequest, ...] = (),
    ) -> SupplierOrder:
        offer_id = str(getattr(offer, "supplier_offer_id", ""))
        if not offer_id.startswith("sbx_") or getattr(offer, "owner", None) not in AIRLINES:
            raise SupplierError("Unknown sandbox offer", code="offer_not_found")
        payment_required_by = getattr(offer, "payment_required_by", None)
        if not instant and (
            getattr(offer, "requires_instant_payment", False) or payment_required_by is None
        ):
            raise SupplierError(
                "This offer must be paid at once; it cannot be held",
                code="instant_payment_required",
            )
        state = OrderState(
            ticketed=False,
            owner=offer.owner,
            booking_reference="",  # drawn when the order is booked
            passenger_numbers=passenger_numbers(offer, passengers),
            total_amount=Decimal(str(offer.total_amount)),
            currency=offer.total_currency,
            refund_penalty=refund_penalty(offer),
            payment_required_by=payment_required_by,
            price_guarantee_expires_at=getattr(offer, "price_guarantee_expires_at", None),
            issuance_fails=any(
                p.family_name.strip().casefold() == ISSUANCE_FAILURE_FAMILY_NAME.casefold()
                for p in passengers
            ),
            scenario=scenario_of(passengers),
        )
        if services:
            if not instant:
                raise SupplierError(
                    "Services can only be bought with an instant order",
                    code="services_need_instant",
                )
            trip = _offer_trip(offer)
            added = extras.services_total(extras.bags(trip) + extras.seat_services(trip), services)
            state = dataclasses.replace(state, total_amount=state.total_amount + added)
        now = timezone.now()
        if state.scenario == PRICE_CHANGE_FAMILY_NAME and not instant:
            # No price guarantee left: the airline may reprice the hold from now on.
            ended = now.replace(microsecond=0) - timedelta(seconds=1)
            state = dataclasses.replace(state, price_guarantee_expires_at=ended)
        if not instant:
            state = book_order(state, booking_id=booking_id, now=now)
            if state.scenario == HOLD_ANSWER_LOST_FAMILY_NAME:
                raise outcome_unknown(state.scenario)
            order = state.order()
        else:
            check_payment(state, amount, currency)
            if state.issuance_fails:
                raise issuance_failure()
            order = self._issue(ticketed_state(state), booking_id=booking_id, now=now, new=True)
        if state.scenario == SCHEDULE_CHANGE_FAMILY_NAME:
            changes.record_schedule_change(order.booking_reference, offer, now)
        return order

    def pay_order(self, *, order_id: str, amount: Decimal, currency: str) -> SupplierOrder:
        current = current_order(order_id)
        if not current.awaiting_payment:
            return current  # already paid: the same order again
        state = OrderState.decode(current.supplier_order_id)
        check_payment(state, amount, currency)
        if state.payment_required_by and timezone.now() > state.payment_required_by:
            raise SupplierError("The hold has expired", code="order_expired")
        if state.issuance_fails:
            raise issuance_failure()
        return self._issue(ticketed_state(state), now=timezone.now(), new=False)

    def _issue(
        self, state: OrderState, *, now: datetime, new: bool, booking_id: str = ""
    ) -> SupplierOrder:
        """Ticket an order (a new instant one, or a paid hold), answering per its scenario."""
        if state.scenario == SUPPLIER_DOWN_FAMILY_NAME:
            raise outcome_unknown(state.scenario)  # nothing was made
        pending = state.scenario == ORDER_PENDING_FAMILY_NAME
        ready_at = now + timedelta(seconds=ORDER_PENDING_SECONDS) if pending else None
        if new:
            state = book_order(state, booking_id=booking_id, now=now, tickets_ready_at=ready_at)
        else:
            rebook_order(state, tickets_ready_at=ready_at)
        if state.scenario in (ANSWER_LOST_FAMILY_NAME, ORDER_PENDING_FAMILY_NAME):
            raise outcome_unknown(state.scenario)
        return state.order()

    def get_order(self, order_id: str) -> SupplierOrder:
        return current_order(order_id)

    def offer_services(self, offer) -> list[SupplierService]:
        return extras.bags(_offer_trip(offer))

    def offer_seat_maps(self, offer) -> list[SeatMap]:
        return extras.seat_maps(_offer_trip(offer))

    def order_services(self, *, order_id: str, booking) -> list[SupplierService]:
        current = current_order(order_id)
        if current.cancelled or current.awaiting_payment:
            return []
        return extras.bags(_booking_trip(current, booking))

    def add_order_services(
        self,
        *,
        order_id: str,
        booking,
        services: tuple[ServiceRequest, ...],
        amount: Decimal,
        currency: str,
    ) -> SupplierOrder:
        current = current_order(order_id)
        if current.cancelled:
            raise SupplierError(
                "The order has already been cancelled", code="order_already_cancelled"
            )
        if current.awaiting_payment:
            raise SupplierError("Pay the order before adding services", code="order_not_paid")
        state = OrderState.decode(current.supplier_order_id)
        added = extras.services_total(extras.bags(_booking_trip(current, booking)), services)
        if currency != state.currency or Decimal(str(amount)) != added:
            raise SupplierError(
                f"Payment must be {added:.2f} {state.currency}", code="payment_amount_mismatch"
            )
        state = dataclasses.replace(state, total_amount=state.total_amount + added)
        rebook_order(state)
        if state.scenario == SERVICES_ANSWER_LOST_FAMILY_NAME:
            raise outcome_unknown(state.scenario)  # added all the same
        return current_order(state.encode())

    def request_order_change(
        self, *, order: BookedOrder, remove: tuple[int, ...], add: tuple[ChangeSlice, ...]
    ) -> SupplierChangeRequest:
        return order_changes.request(self.search, order=order, remove=remove, add=add)

    def create_order_change(self, *, change_offer_id: str) -> SupplierOrderChange:
        return order_changes.create(change_offer_id=change_offer_id)

    def confirm_order_change(
        self, *, change_id: str, amount: Decimal, currency: str
    ) -> SupplierOrderChange:
        return order_changes.confirm(change_id=change_id, amount=amount, currency=currency)

    def get_order_change(self, change_id: str) -> SupplierOrderChange:
        return order_changes.get(change_id)

    def find_order(self, *, booking_id, created_after, passengers) -> SupplierOrder | None:
        entry = (
            SandboxOrder.objects.filter(booking_id=booking_id, created_at__gte=created_after)
            .order_by("-created_at")
            .first()
        )
        return current_order(entry.order_id) if entry is not None and booking_id else None

    def quote_cancellation(self, order_id: str) -> CancellationQuote:
        """From the fare's refund condition (total minus penalty; nothing when not refundable,
        nothing for a hold not paid), per the order's cancellation scenario."""
        current = current_order(order_id)
        if current.cancelled:
            raise SupplierError(
                "The order has already been cancelled", code="order_already_cancelled"
            )
        state = OrderState.decode(current.supplier_order_id)
        now = timezone.now()
        lifetime = (
            timedelta(seconds=QUOTE_SHORT_SECONDS)
            if state.scenario == QUOTE_EXPIRES_FAMILY_NAME
            else timedelta(minutes=QUOTE_MINUTES)
        )
        expires_at = ceil_second(now) + lifetime
        nonce = secrets.token_hex(4)
        payload = f"{int(expires_at.timestamp())}.{state.booking_reference}.{nonce}"
        quote_id = f"{QUOTE_PREFIX}{payload}-{checksum(payload)}"
        return self._cancellation(state, current, quote_id, expires_at, now, confirmed=False)

    def confirm_cancellation(self, quote_id: str) -> CancellationQuote:
        payload = verified_payload(quote_id, QUOTE_PREFIX)
        parts = payload.split(".") if payload else []
        if len(parts) != 3:
            raise SupplierError("Unknown sandbox cancellation quote", code="quote_not_found")
        expires = datetime.fromtimestamp(int(parts[0]), tz=UTC)
        now = timezone.now()
        if now > expires:
            raise SupplierError("The cancellation quote has expired", code="quote_expired")
        entry = SandboxOrder.objects.filter(pk=parts[1]).first()
        if entry is None:
            raise SupplierError("Unknown sandbox cancellation quote", code="quote_not_found")
        current = current_order(entry.order_id)
        if current.cancelled:
            raise SupplierError(
                "The order has already been cancelled", code="order_already_cancelled"
            )
        state = OrderState.decode(current.supplier_order_id)
        confirmed = self._cancellation(state, current, quote_id, expires, now, confirmed=True)
        if not record_cancellation(state.booking_reference, confirmed):
            raise SupplierError(
                "The order has already been cancelled", code="order_already_cancelled"
            )
        changes.cancel_on_change(state.booking_reference)
        if state.scenario == CANCEL_ANSWER_LOST_FAMILY_NAME:
            raise outcome_unknown(state.scenario)  # cancelled all the same
        return confirmed

    def get_cancellation(self, quote_id: str) -> CancellationQuote:
        """The quote as the book has it: confirmed when it is the order's recorded
        cancellation, the quote otherwise."""
        payload = verified_payload(quote_id, QUOTE_PREFIX)
        parts = payload.split(".") if payload else []
        entry = SandboxOrder.objects.filter(pk=parts[1]).first() if len(parts) == 3 else None
        if entry is None:
            raise SupplierError("Unknown sandbox cancellation quote", code="quote_not_found")
        if entry.cancellation and entry.cancellation.get("id") == quote_id:
            return cancellation_from(entry.cancellation)
        current = current_order(entry.order_id)
        state = OrderState.decode(current.supplier_order_id)
        expires = datetime.fromtimestamp(int(parts[0]), tz=UTC)
        return self._cancellation(
            state, current, quote_id, expires, timezone.now(), confirmed=False
        )

    def list_airline_changes(self, order_id: str) -> list[AirlineChange]:
        return changes.changes_of(order_id)

    def accept_airline_change(self, change_id: str) -> AirlineChange:
        return changes.accept(change_id)

    @staticmethod
    def _cancellation(
        state: OrderState,
        current: SupplierOrder,
        quote_id: str,
        expires_at: datetime,
        now: datetime,
        *,
        confirmed: bool,
    ) -> CancellationQuote:
        refund = Decimal("0.00")
        if changes.unanswered_change(state.booking_reference):
            refund = state.total_amount  # the airline changed the flight: an involuntary refund
        elif state.refund_penalty is not None:
            refund = q(max(state.total_amount - state.refund_penalty, Decimal(0)))
        if state.scenario == REFUND_LOWER_FAMILY_NAME or (
            confirmed and state.scenario == REFUND_DROPS_FAMILY_NAME
        ):
            refund = q(refund / 2)
        refund_to = "balance"
        credits: tuple[AirlineCredit, ...] = ()
        if current.awaiting_payment:
            refund, refund_to = Decimal("0.00"), "awaiting_payment"
        elif state.scenario == REFUND_VOUCHER_FAMILY_NAME:
            refund_to = "voucher"
            if refund:  # a fare that refunds nothing gets no voucher of 0.00
                credits = (sandbox_credit(state, refund, "Voucher", None, now),)
        elif state.scenario == REFUND_CREDITS_FAMILY_NAME:
            refund_to = "airline_credits"
            shares = split_evenly(refund, len(state.passenger_numbers))
            credits = tuple(
                sandbox_credit(state, share, "Future Flight Credit", f"sbx_pas_{n}", now)
                for n, share in zip(state.passenger_numbers, shares, strict=True)
                if share
            )
        return CancellationQuote(
            supplier_quote_id=quote_id,
            order_id=current.supplier_order_id,
            refund_amount=refund,
            refund_currency=state.currency,
            refund_to=refund_to,
            airline_credits=credits,
            expires_at=expires_at,
            confirmed_at=now if confirmed else None,
            created_at=now,
        )


def _offer_trip(offer) -> extras.Trip:
    """A stored offer's extras: its slices as the search showed them, its passengers."""
    data = getattr(offer, "data", None) or {}
    kinds = [p["type"] for p in data.get("passengers") or getattr(offer, "passengers", [])]
    return extras.Trip(
        key=str(offer.supplier_offer_id),
        currency=offer.total_currency,
        slices=data.get("slices") or [],
        passengers=list(zip(offer.supplier_passenger_ids, kinds, strict=False)),
    )


def _booking_trip(order: SupplierOrder, booking) -> extras.Trip:
    """A booking's extras after the sale: its slices (with the bags it has), its passengers."""
    return extras.Trip(
        key=f"order:{order.booking_reference}",
        currency=booking.total_currency,
        slices=booking.slices,
        passengers=[
            (p.supplier_passenger_id or p.passenger_id, p.type)
            for p in booking.passengers.order_by("position")
        ],
    )


def split_evenly(amount: Decimal, parts: int) -> list[Decimal]:
    """`amount` in `parts` shares of whole cents, the first ones taking the leftover cents."""
    cents = int(q(amount) * 100)
    share, rest = divmod(cents, parts)
    return [Decimal(share + (1 if i < rest else 0)) / 100 for i in range(parts)]


def sandbox_credit(
    state: OrderState, amount: Decimal, name: str, passenger_id: str | None, now: datetime
) -> AirlineCredit:
    serial = stable_int("credit", state.booking_reference, passenger_id or "") % 10**10
    return AirlineCredit(
        id=f"sbx_acd_{serial:010d}",
        credit_amount=amount,
        credit_currency=state.currency,
        credit_code=f"{AIRLINES[state.owner].ticket_prefix}{serial:010d}",
        credit_name=name,
        type="eticket" if passenger_id else "mco",
        passenger_id=passenger_id,
        issued_on=now.date(),
        expires_at=now + timedelta(days=365),
    )
