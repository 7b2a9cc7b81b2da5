"""The sandbox supplier: search, orders and cancellations on top of the other modules."""

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from core.money import q
from flights.models import SandboxOrder
from flights.reference import AIRLINES
from flights.suppliers.base import (
    CancellationQuote,
    FlightSupplier,
    OrderPassenger,
    SearchRequest,
    SupplierError,
    SupplierOffer,
    SupplierOrder,
)
from flights.suppliers.sandbox.common import ceil_second, digest
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
    check_payment,
    checksum,
    current_order,
    passenger_numbers,
    rebook_order,
    refund_penalty,
    ticketed_state,
    verified_payload,
)
from flights.suppliers.sandbox.scenarios import (
    ANSWER_LOST_FAMILY_NAME,
    HOLD_ANSWER_LOST_FAMILY_NAME,
    ISSUANCE_FAILURE_FAMILY_NAME,
    ORDER_PENDING_FAMILY_NAME,
    ORDER_PENDING_SECONDS,
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
        now = timezone.now()
        if not instant:
            state = book_order(state, booking_id=booking_id, now=now)
            if state.scenario == HOLD_ANSWER_LOST_FAMILY_NAME:
                raise outcome_unknown(state.scenario)
            return state.order()
        check_payment(state, amount, currency)
        if state.issuance_fails:
            raise issuance_failure()
        return self._issue(ticketed_state(state), booking_id=booking_id, now=now, new=True)

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

    def find_order(self, *, booking_id, created_after, passengers) -> SupplierOrder | None:
        entry = (
            SandboxOrder.objects.filter(booking_id=booking_id, created_at__gte=created_after)
            .order_by("-created_at")
            .first()
        )
        return current_order(entry.order_id) if entry is not None and booking_id else None

    def quote_cancellation(self, order_id: str) -> CancellationQuote:
        state = OrderState.decode(order_id)
        if state.refund_penalty is None:
            refund = Decimal("0.00")
        else:
            refund = q(max(state.total_amount - state.refund_penalty, Decimal(0)))
        expires_at = ceil_second(timezone.now()) + timedelta(minutes=QUOTE_MINUTES)
        payload = f"{int(expires_at.timestamp())}.{digest(state.encode(), size=8).hex()}"
        return CancellationQuote(
            supplier_quote_id=f"{QUOTE_PREFIX}{payload}-{checksum(payload)}",
            refund_amount=refund,
            refund_currency=state.currency,
            expires_at=expires_at,
        )

    def confirm_cancellation(self, quote_id: str) -> None:
        payload = verified_payload(quote_id, QUOTE_PREFIX)
        if payload is None:
            raise SupplierError("Unknown sandbox cancellation quote", code="quote_not_found")
        expires = datetime.fromtimestamp(int(payload.split(".")[0]), tz=UTC)
        if timezone.now() > expires:
            raise SupplierError("The cancellation quote has expired", code="quote_expired")
