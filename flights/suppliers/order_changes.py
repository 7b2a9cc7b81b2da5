"""Changing the flights of a paid order at its supplier (Duffel's order change requests, order
change offers and order changes), in our terms: a change request's slices, the offers the
airline makes for it, and a change made from one of them. Amounts are Decimal in the airline's
currency; `change_total_amount` is negative when the airline refunds the difference."""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from flights.models import CabinClass, PassengerType
from flights.suppliers.base import SupplierSlice

# Where a change's refund goes (Duffel's `refund_to`): the cash ones come back to the supplier
# balance we paid from, hence to the wallet; a voucher or airline credits do not.
CASH_CHANGE_REFUND_TO = frozenset({"balance", "original_form_of_payment", "arc_bsp_cash"})
CHANGE_REFUND_TO = (*sorted(CASH_CHANGE_REFUND_TO), "voucher", "airline_credits")


@dataclass(frozen=True)
class ChangeSlice:
    """A slice to add (Duffel's `slices.add[]`)."""

    origin: str
    destination: str
    departure_date: date
    cabin_class: CabinClass


@dataclass(frozen=True)
class BookedOrder:
    """What the order's holder knows of the order a change is asked for: its slices as booked
    (`(origin, destination)` of each, in order), its passengers' types and family names, and the
    fare's change condition as stored at booking (the sandbox airline reads them; Duffel reads
    its own order)."""

    order_id: str
    slices: tuple[tuple[str, str], ...]
    passenger_types: tuple[PassengerType, ...]
    family_names: tuple[str, ...]
    change_allowed: bool
    change_penalty: Decimal | None
    total_amount: Decimal
    total_currency: str


@dataclass(frozen=True)
class SupplierChangeOffer:
    """One of the airline's offers for a change request (Duffel's OrderChangeOffer)."""

    supplier_offer_id: str
    added: tuple[SupplierSlice, ...]
    removed: tuple[int, ...]  # positions of the order's slices it removes
    change_total_amount: Decimal
    change_total_currency: str
    penalty_amount: Decimal | None
    penalty_currency: str
    new_total_amount: Decimal
    new_total_currency: str
    refund_to: str | None  # one of CHANGE_REFUND_TO; None when nothing is refunded
    expires_at: datetime | None


@dataclass(frozen=True)
class SupplierChangeRequest:
    """An order change request and its offers (Duffel's OrderChangeRequest)."""

    supplier_request_id: str
    offers: tuple[SupplierChangeOffer, ...]
    created_at: datetime | None = None


@dataclass(frozen=True)
class SupplierOrderChange:
    """An order change made from an offer (Duffel's OrderChange): pending until
    `confirmed_at`."""

    supplier_change_id: str
    order_id: str
    change_total_amount: Decimal
    change_total_currency: str
    new_total_amount: Decimal
    new_total_currency: str
    refund_to: str | None
    confirmed_at: datetime | None
