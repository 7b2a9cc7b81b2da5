"""The sandbox's orders: the order ids that carry their state, and the airline's order book
(`SandboxOrder`) that creating, paying, looking up and cancelling go through."""

import dataclasses
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.money import q
from flights.models import SandboxOrder
from flights.reference import AIRLINES
from flights.suppliers.base import (
    AirlineCredit,
    CancellationQuote,
    OrderPassenger,
    SupplierError,
    SupplierOrder,
    TicketDocument,
)
from flights.suppliers.sandbox.common import digest, stable_int
from flights.suppliers.sandbox.scenarios import SCENARIO_FLAGS

# --- Orders ------------------------------------------------------------------------------------

ORDER_PREFIX = "sbx_ord_"
QUOTE_PREFIX = "sbx_ocq_"
PASSENGER_ID = re.compile(r"^sbx_pas_([1-9]|[12]\d|3[0-5])$")  # one base-36 digit in order ids
REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I


@dataclass(frozen=True)
class OrderState:
    """Everything an order id carries: `sbx_ord_` and dash-separated fields (numbers in base
    36, instants in Unix seconds), then a checksum; under 100 characters for 18 passengers."""

    ticketed: bool
    owner: str
    booking_reference: str
    passenger_numbers: tuple[int, ...]  # n of each sbx_pas_<n>
    total_amount: Decimal
    currency: str
    refund_penalty: Decimal | None  # None: not refundable
    payment_required_by: datetime | None
    price_guarantee_expires_at: datetime | None
    issuance_fails: bool
    scenario: str = ""  # one of SCENARIO_FLAGS' keys: how the ticketing call answers

    def encode(self) -> str:
        flags = ("f" if self.issuance_fails else "") + SCENARIO_FLAGS.get(self.scenario, "")
        fields = [
            "t" if self.ticketed else "h",
            self.owner,
            self.booking_reference,
            "".join(_base36(n) for n in self.passenger_numbers),
            _base36(_cents(self.total_amount)),
            self.currency,
            "n" if self.refund_penalty is None else f"r{_base36(_cents(self.refund_penalty))}",
            _encode_instant(self.payment_required_by),
            _encode_instant(self.price_guarantee_expires_at),
            flags or "0",
        ]
        payload = "-".join(fields)
        return f"{ORDER_PREFIX}{payload}-{checksum(payload)}"

    @classmethod
    def decode(cls, order_id: str) -> "OrderState":
        payload = verified_payload(order_id, ORDER_PREFIX)
        fields = payload.split("-") if payload else []
        if len(fields) != 10:
            raise _order_not_found()
        state, owner, pnr, numbers, cents, currency, refund, pay_by, guarantee, flags = fields
        scenario = next((name for name, flag in SCENARIO_FLAGS.items() if flag in flags), "")
        return cls(
            ticketed=state == "t",
            owner=owner,
            booking_reference=pnr,
            passenger_numbers=tuple(int(n, 36) for n in numbers),
            total_amount=Decimal(int(cents, 36)) / 100,
            currency=currency,
            refund_penalty=None if refund == "n" else Decimal(int(refund[1:], 36)) / 100,
            payment_required_by=_decode_instant(pay_by),
            price_guarantee_expires_at=_decode_instant(guarantee),
            issuance_fails="f" in flags,
            scenario=scenario,
        )

    def order(self, *, issuing: bool = False) -> SupplierOrder:
        """The order in this state; `issuing`: paid, the airline has not issued the tickets."""
        documents: tuple[TicketDocument, ...] = ()
        if self.ticketed and not issuing:
            documents = tuple(
                TicketDocument(
                    supplier_passenger_id=f"sbx_pas_{n}", unique_identifier=self._ticket_number(n)
                )
                for n in self.passenger_numbers
            )
        return SupplierOrder(
            supplier_order_id=self.encode(),
            booking_reference=self.booking_reference,
            documents=documents,
            payment_required_by=None if self.ticketed else self.payment_required_by,
            price_guarantee_expires_at=None if self.ticketed else self.price_guarantee_expires_at,
            awaiting_payment=not self.ticketed,
            total_amount=self.total_amount,
        )

    def _ticket_number(self, passenger_number: int) -> str:
        serial = stable_int("ticket", self.booking_reference, passenger_number) % 10**10
        return f"{AIRLINES[self.owner].ticket_prefix}{serial:010d}"


def checksum(payload: str) -> str:
    return digest("sandbox-order", payload, size=4).hex()


def verified_payload(identifier: str, prefix: str) -> str | None:
    if not isinstance(identifier, str) or not identifier.startswith(prefix):
        return None
    payload, _, check = identifier[len(prefix) :].rpartition("-")
    return payload if payload and checksum(payload) == check else None


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not number:
            return digits


def _cents(amount: Decimal) -> int:
    return int(q(amount) * 100)


def _encode_instant(moment: datetime | None) -> str:
    return "0" if moment is None else _base36(int(moment.timestamp()))


def _decode_instant(text: str) -> datetime | None:
    return None if text == "0" else datetime.fromtimestamp(int(text, 36), tz=UTC)


def _order_not_found() -> SupplierError:
    return SupplierError("Unknown sandbox order", code="order_not_found")


def _new_booking_reference() -> str:
    """A random airline locator, as airlines hand them out (unique in the order book)."""
    return "".join(secrets.choice(REFERENCE_ALPHABET) for _ in range(6))


# --- The order book ----------------------------------------------------------------------------


def book_order(
    state: OrderState, *, booking_id: str, now: datetime, tickets_ready_at: datetime | None = None
) -> OrderState:
    """Write a new order into the airline's book under a fresh random reference."""
    for _ in range(5):
        state = dataclasses.replace(state, booking_reference=_new_booking_reference())
        try:
            with transaction.atomic():
                SandboxOrder.objects.create(
                    booking_reference=state.booking_reference,
                    booking_id=booking_id,
                    order_id=state.encode(),
                    created_at=now,
                    tickets_ready_at=tickets_ready_at,
                )
        except IntegrityError:
            continue  # that reference is taken: draw another
        return state
    raise SupplierError("The sandbox could not allocate a booking reference")


def rebook_order(state: OrderState, *, tickets_ready_at: datetime | None = None) -> None:
    """The order changed (paid): its book entry follows."""
    SandboxOrder.objects.filter(pk=state.booking_reference).update(
        order_id=state.encode(), tickets_ready_at=tickets_ready_at
    )


def current_order(order_id: str) -> SupplierOrder:
    """An order as the airline's book has it now, from any of its ids."""
    state = OrderState.decode(order_id)
    entry = SandboxOrder.objects.filter(pk=state.booking_reference).first()
    if entry is None:
        return state.order()
    issuing = bool(entry.tickets_ready_at and timezone.now() < entry.tickets_ready_at)
    order = OrderState.decode(entry.order_id).order(issuing=issuing)
    if entry.cancellation:
        order = dataclasses.replace(
            order, cancelled=True, cancellation=cancellation_from(entry.cancellation)
        )
    return order


# --- Cancellations -----------------------------------------------------------------------------


def cancellation_json(quote: CancellationQuote) -> dict:
    """A cancellation as the order book keeps it (Duffel's OrderCancellation's fields)."""
    return {
        "id": quote.supplier_quote_id,
        "order_id": quote.order_id,
        "refund_amount": None if quote.refund_amount is None else f"{quote.refund_amount:.2f}",
        "refund_currency": quote.refund_currency,
        "refund_to": quote.refund_to,
        "airline_credits": [
            {
                "id": c.id,
                "credit_amount": f"{c.credit_amount:.2f}",
                "credit_currency": c.credit_currency,
                "credit_code": c.credit_code,
                "credit_name": c.credit_name,
                "type": c.type,
                "passenger_id": c.passenger_id,
                "issued_on": c.issued_on.isoformat() if c.issued_on else None,
                "expires_at": c.expires_at.isoformat() if c.expires_at else None,
            }
            for c in quote.airline_credits
        ],
        "expires_at": quote.expires_at.isoformat() if quote.expires_at else None,
        "confirmed_at": quote.confirmed_at.isoformat() if quote.confirmed_at else None,
        "created_at": quote.created_at.isoformat() if quote.created_at else None,
    }


def cancellation_from(data: dict) -> CancellationQuote:
    def instant(key: str, source: dict) -> datetime | None:
        return datetime.fromisoformat(source[key]) if source.get(key) else None

    return CancellationQuote(
        supplier_quote_id=data["id"],
        order_id=data["order_id"],
        refund_amount=None if data["refund_amount"] is None else Decimal(data["refund_amount"]),
        refund_currency=data["refund_currency"],
        refund_to=data["refund_to"],
        airline_credits=tuple(
            AirlineCredit(
                id=c["id"],
                credit_amount=Decimal(c["credit_amount"]),
                credit_currency=c["credit_currency"],
                credit_code=c["credit_code"],
                credit_name=c["credit_name"],
                type=c["type"],
                passenger_id=c["passenger_id"],
                issued_on=date.fromisoformat(c["issued_on"]) if c["issued_on"] else None,
                expires_at=instant("expires_at", c),
            )
            for c in data["airline_credits"]
        ),
        expires_at=instant("expires_at", data),
        confirmed_at=instant("confirmed_at", data),
        created_at=instant("created_at", data),
    )


def record_cancellation(booking_reference: str, quote: CancellationQuote) -> bool:
    """Write a confirmed cancellation into the book, once: False if the order already was."""
    return bool(
        SandboxOrder.objects.filter(pk=booking_reference, cancellation__isnull=True).update(
            cancellation=cancellation_json(quote)
        )
    )


def _attr_or_key(source: object, name: str):
    if isinstance(source, dict):
        return source.get(name)
    return getattr(source, name, None)


def refund_penalty(offer) -> Decimal | None:
    """The refund penalty of a stored offer (None: not refundable), from the attribute
    `refund_before_departure` or the rendered `data["conditions"]`."""
    refund = getattr(offer, "refund_before_departure", None)
    if refund is None:
        data = getattr(offer, "data", None) or {}
        refund = (data.get("conditions") or {}).get("refund_before_departure")
    if refund is None or not _attr_or_key(refund, "allowed"):
        return None
    penalty = _attr_or_key(refund, "penalty_amount")
    return Decimal(str(penalty)) if penalty is not None else Decimal(0)


def check_payment(state: OrderState, amount: Decimal, currency: str) -> None:
    if currency != state.currency or Decimal(str(amount)) != state.total_amount:
        raise SupplierError(
            f"Payment must be {state.total_amount:.2f} {state.currency}",
            code="payment_amount_mismatch",
        )


def passenger_numbers(offer, passengers: list[OrderPassenger]) -> tuple[int, ...]:
    known = getattr(offer, "supplier_passenger_ids", None) or None
    numbers = []
    for passenger in passengers:
        match = PASSENGER_ID.match(passenger.supplier_passenger_id or "")
        if not match or (known is not None and passenger.supplier_passenger_id not in known):
            raise SupplierError(
                f"Unknown passenger {passenger.supplier_passenger_id!r} for this offer",
                code="invalid_passenger",
            )
        numbers.append(int(match.group(1)))
    if not numbers or len(set(numbers)) != len(numbers):
        raise SupplierError(
            "Each passenger of the offer must be named once", code="invalid_passenger"
        )
    return tuple(numbers)


def ticketed_state(state: OrderState) -> OrderState:
    return dataclasses.replace(state, ticketed=True)
