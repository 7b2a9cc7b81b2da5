"""The supplier interface: what every flight source (the sandbox, Duffel) returns, in our terms
but before our ids, pricing and storage. Amounts are Decimal in the airline's currency; local
times are naive datetimes at the airport; instants are aware UTC datetimes."""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Literal

from prometheus_client import Histogram

from core.exceptions import ApplicationError
from core.metrics import OUTSIDE_CALL_BUCKETS, meter_calls
from flights.models import BaggageType, CabinClass, PassengerType

if TYPE_CHECKING:
    from flights.suppliers.order_changes import (
        BookedOrder,
        ChangeSlice,
        SupplierChangeRequest,
        SupplierOrderChange,
    )


class SupplierError(ApplicationError):
    """The supplier failed or refused; the message is safe to show to the agency."""

    status_code = 502
    code = "supplier_error"
    message = "The flight supplier is unavailable; try again later"


class SupplierOutcomeUnknown(SupplierError):
    """A call that changes something at the airline (ordering, paying) got no answer we can
    trust: the answer was lost after the request was sent (a read timeout, a dropped
    connection), a 5xx, an unreadable success, or an order the airline accepted without
    confirming it yet (Duffel's `202`). The order or payment may exist: this is never a refusal.
    Bookings keep the money where it is and ask again later (`find_order`, `get_order`)."""

    code = "supplier_outcome_unknown"
    message = "The flight supplier has not confirmed the outcome yet; we are checking with it"


class SupplierNotConnected(ApplicationError):
    """Live mode needs a real supplier: without an active integration nothing is searched or
    booked (unless the operator allows the sandbox in live mode, FLIGHTS_LIVE_SANDBOX)."""

    status_code = 422
    code = "supplier_not_connected"
    message = (
        "No flight supplier is connected for live mode; connect one (Duffel) or use a test key"
    )


# --- Search ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchSlice:
    origin: str  # the code asked for: an airport (GRU) or a city (SAO)
    destination: str
    origin_airports: tuple[str, ...]  # the airports it stands for: (GRU,) or (CGH, GRU, VCP)
    destination_airports: tuple[str, ...]
    departure_date: date


@dataclass(frozen=True)
class SearchRequest:
    slices: tuple[SearchSlice, ...]
    passengers: tuple[PassengerType, ...]  # one entry per passenger, adults first
    cabin_class: CabinClass = CabinClass.ECONOMY


@dataclass(frozen=True)
class Baggage:
    type: BaggageType
    quantity: int


@dataclass(frozen=True)
class SupplierSegment:
    origin: str  # IATA airport
    destination: str
    origin_terminal: str | None
    destination_terminal: str | None
    departing_at: datetime  # naive, local time at the origin airport
    arriving_at: datetime  # naive, local time at the destination airport
    marketing_carrier: str  # IATA airline code
    marketing_flight_number: str  # digits only, e.g. "3450"
    operating_carrier: str
    operating_flight_number: str
    aircraft: str  # IATA aircraft type code, e.g. "32N"
    duration_minutes: int
    distance_km: Decimal
    cabin_class: CabinClass
    cabin_class_marketing_name: str
    fare_basis_code: str
    baggages: tuple[Baggage, ...]


@dataclass(frozen=True)
class SupplierSlice:
    origin: str  # IATA airport of the first segment
    destination: str  # IATA airport of the last segment
    duration_minutes: int  # first departure to last arrival
    segments: tuple[SupplierSegment, ...]
    fare_brand_name: str


@dataclass(frozen=True)
class Condition:
    allowed: bool
    penalty_amount: Decimal | None = None
    penalty_currency: str | None = None


# The identity documents a passenger may carry (the spec's types, Duffel's names).
IDENTITY_DOCUMENT_TYPES = ("passport", "tax_id", "known_traveler_number")


@dataclass(frozen=True)
class SupplierOffer:
    supplier_offer_id: str  # the supplier's own id, used to hold or book it
    owner: str  # IATA code of the main airline
    total_amount: Decimal  # base + tax, in total_currency, for all passengers
    base_amount: Decimal
    tax_amount: Decimal
    total_currency: str
    slices: tuple[SupplierSlice, ...]
    refund_before_departure: Condition
    change_before_departure: Condition
    requires_instant_payment: bool
    expires_at: datetime  # aware UTC; 15 to 30 minutes after the search
    # Aware UTC deadlines of a hold; None when the offer must be paid at once.
    payment_required_by: datetime | None
    price_guarantee_expires_at: datetime | None
    # Supplier passenger ids in the order of SearchRequest.passengers (Duffel has its own).
    supplier_passenger_ids: tuple[str, ...] = field(default_factory=tuple)
    # The supplier's document rules for ordering this offer (Duffel's names): whether every
    # passenger must carry an identity document, and the types it takes (others are not sent).
    passenger_identity_documents_required: bool = False
    allowed_passenger_identity_document_types: tuple[str, ...] = IDENTITY_DOCUMENT_TYPES


# --- Orders (used by bookings) -----------------------------------------------------------------


@dataclass(frozen=True)
class OrderPassenger:
    supplier_passenger_id: str
    type: PassengerType
    title: str | None
    given_name: str
    family_name: str
    gender: Literal["m", "f"]
    born_on: date
    email: str
    phone_number: str
    identity_documents: tuple[dict, ...] = ()
    infant_supplier_passenger_id: str | None = None
    loyalty_programme_accounts: tuple[dict, ...] = ()  # {airline_iata_code, account_number}


@dataclass(frozen=True)
class TicketDocument:
    supplier_passenger_id: str
    unique_identifier: str  # 13-digit e-ticket number
    type: str = "electronic_ticket"


@dataclass(frozen=True)
class SupplierOrder:
    """An order as the supplier knows it. Read it as: `documents` → ticketed; `cancelled` →
    gone; `awaiting_payment` → a hold not paid yet; otherwise paid and awaiting issuance."""

    supplier_order_id: str
    booking_reference: str  # the airline locator (PNR)
    documents: tuple[TicketDocument, ...]  # empty until ticketed
    payment_required_by: datetime | None
    price_guarantee_expires_at: datetime | None
    awaiting_payment: bool = False
    cancelled: bool = False
    # The confirmed cancellation of a cancelled order (Duffel's `cancellation`), when known.
    cancellation: "CancellationQuote | None" = None
    # What the order costs now, flights and services, in its currency, when the supplier says
    # it: a hold's price may change once its guarantee is over, and services bought with an
    # uncertain answer are found again by it. Not part of equality: the same order whichever
    # call read it.
    total_amount: Decimal | None = field(default=None, compare=False)
    total_currency: str = ""
    base_amount: Decimal | None = None
    tax_amount: Decimal | None = None


# Where a cancellation's refund goes (Duffel's `refund_to`). Only the cash ones are money back
# in the supplier balance we paid from, hence in the wallet; the others credit 0.00.
CASH_REFUND_TO = frozenset({"balance", "original_form_of_payment", "arc_bsp_cash", "card"})
REFUND_TO = (
    "balance",
    "original_form_of_payment",
    "arc_bsp_cash",
    "card",
    "voucher",
    "airline_credits",
    "awaiting_payment",
)


@dataclass(frozen=True)
class AirlineCredit:
    """A credit the airline issues instead of cash (Duffel's cancellation `airline_credits`)."""

    id: str
    credit_amount: Decimal
    credit_currency: str
    credit_code: str | None
    credit_name: str
    type: str  # "eticket", "mco"
    passenger_id: str | None
    issued_on: date | None
    expires_at: datetime | None


@dataclass(frozen=True)
class CancellationQuote:
    """An order cancellation as the supplier states it (Duffel's OrderCancellation): a quote
    (`confirmed_at` None) or, once confirmed, what was actually refunded."""

    supplier_quote_id: str
    refund_amount: Decimal | None  # in refund_currency; None: the airline could not tell
    refund_currency: str
    expires_at: datetime | None
    refund_to: str = "balance"  # one of REFUND_TO
    airline_credits: tuple[AirlineCredit, ...] = ()
    order_id: str = ""
    confirmed_at: datetime | None = None
    created_at: datetime | None = None

    @property
    def cash(self) -> bool:
        return self.refund_to in CASH_REFUND_TO


# What can be done about an airline-initiated change (Duffel's `available_actions`), and what was
# (`action_taken`).
AIRLINE_CHANGE_ACTIONS = ("accept", "cancel", "change", "update")
AIRLINE_CHANGE_ACTIONS_TAKEN = ("accepted", "cancelled", "changed")


@dataclass(frozen=True)
class AirlineChange:
    """A change the airline made to an order (Duffel's AirlineInitiatedChange): the slices as
    they were (`removed`) and as they are now (`added`), what can be done about it, and what
    was done (`action_taken`, None while unanswered)."""

    supplier_change_id: str
    order_id: str
    added: tuple[SupplierSlice, ...]
    removed: tuple[SupplierSlice, ...]
    available_actions: tuple[str, ...]
    action_taken: str | None
    action_taken_at: datetime | None
    created_at: datetime | None


# --- Extras: bags and seats (Duffel's available services and seat maps) -------------------------


@dataclass(frozen=True)
class SupplierService:
    """A service the supplier sells with an offer or an order (Duffel's available service): an
    extra bag (`baggage`) or a seat (`seat`). Segments are named by position in the offer's
    slices, `(slice index, segment index)`, since suppliers name them each their own way;
    passengers by the supplier's passenger ids. `total_amount` is the price of one unit, for all
    its passengers and segments."""

    id: str
    type: str  # "baggage" or "seat"
    passenger_ids: tuple[str, ...]
    segments: tuple[tuple[int, int], ...]
    maximum_quantity: int
    total_amount: Decimal
    total_currency: str
    metadata: dict = field(default_factory=dict)  # as Duffel gives it (maximum_weight_kg...)


@dataclass(frozen=True)
class SeatMap:
    """One segment's seat map, in Duffel's shape (`cabins`: rows, sections, elements), each
    seat's `available_services` `{id, passenger_id, total_amount, total_currency}` with the
    supplier's passenger ids; `segment` is the segment's position, as for SupplierService."""

    id: str
    segment: tuple[int, int]
    cabins: list[dict]


@dataclass(frozen=True)
class ServiceRequest:
    """A service to buy: its id and how many."""

    id: str
    quantity: int


SUPPLIER_CALLS = Histogram(
    "agency_supplier_call_duration_seconds",
    "Calls to a flight supplier's adapter, by supplier, operation and outcome.",
    ["supplier", "operation", "outcome"],
    buckets=OUTSIDE_CALL_BUCKETS,
)


def supplier_call_outcome(exc: BaseException) -> str:
    """`unknown` (the change may have happened), `error` (the supplier failed or refused) or
    `exception` (anything else: a bug of ours, or an answer we could not read)."""
    if isinstance(exc, SupplierOutcomeUnknown):
        return "unknown"
    if isinstance(exc, SupplierError):
        return "error"
    return "exception"


def supplier_calls() -> list[str]:
    """The calls to a supplier the interface declares (its public methods)."""
    return sorted(
        name
        for name, value in vars(FlightSupplier).items()
        if callable(value) and not name.startswith("_")
    )


class FlightSupplier(ABC):
    name: str

    def __init_subclass__(cls, **kwargs):
        """Every adapter's calls are timed (docs/operations.md), whoever wrote the adapter."""
        super().__init_subclass__(**kwargs)
        meter_calls(
            cls,
            histogram=SUPPLIER_CALLS,
            # Every call the interface declares: a new one is timed without anyone listing it.
            operations=supplier_calls(),
            outcome_of=supplier_call_outcome,
        )

    @abstractmethod
    def search(self, request: SearchRequest) -> list[SupplierOffer]:
        """Offers for the request (may be empty). Raises SupplierError."""

    @abstractmethod
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
        """Hold (instant=False) or book and ticket (instant=True) a stored offer, with the
        `services` (instant only) of `offer_services` / `offer_seat_maps`; `amount` is then the
        offer's total plus theirs. The order carries `booking_id` (our `ord_`) in its
        metadata, so that `find_order` finds it when the answer to this call is lost. Raises
        SupplierOutcomeUnknown when the order may exist without our knowing it, SupplierError
        when it certainly does not."""

    @abstractmethod
    def pay_order(self, *, order_id: str, amount: Decimal, currency: str) -> SupplierOrder:
        """Pay a held order, which issues its tickets. Raises SupplierOutcomeUnknown when the
        payment may have been taken without our knowing it."""

    @abstractmethod
    def get_order(self, order_id: str) -> SupplierOrder:
        """The order as the supplier knows it now."""

    # Changing an order's flights (flights/suppliers/order_changes.py); a supplier that cannot
    # refuses each call.

    def request_order_change(
        self, *, order: "BookedOrder", remove: tuple[int, ...], add: "tuple[ChangeSlice, ...]"
    ) -> "SupplierChangeRequest":
        """A SupplierChangeRequest for the BookedOrder `order`: the airline's offers for
        removing the slices at the positions `remove` and adding the ChangeSlices `add`.
        SupplierError (code `change_not_allowed` when the airline refuses the change)."""
        raise SupplierError("This flight supplier cannot change orders", code="change_not_allowed")

    def create_order_change(self, *, change_offer_id: str) -> "SupplierOrderChange":
        """A pending SupplierOrderChange made from a change offer (nothing changes yet)."""
        raise SupplierError("This flight supplier cannot change orders", code="change_not_allowed")

    def confirm_order_change(
        self, *, change_id: str, amount: Decimal, currency: str
    ) -> "SupplierOrderChange":
        """Confirm a pending change, paying (or being refunded) its change_total_amount; the
        confirmed SupplierOrderChange. SupplierOutcomeUnknown when it may have been made without
        our knowing it (`get_order_change` tells later)."""
        raise SupplierError("This flight supplier cannot change orders", code="change_not_allowed")

    def get_order_change(self, change_id: str) -> "SupplierOrderChange":
        """The SupplierOrderChange as the supplier knows it now (a read)."""
        raise SupplierError("This flight supplier cannot change orders", code="change_not_allowed")

    @abstractmethod
    def find_order(
        self, *, booking_id: str, created_after: datetime, passengers: list[OrderPassenger]
    ) -> SupplierOrder | None:
        """The order created for `booking_id` (the metadata `create_order` sent), looking at
        orders created after `created_after` (the supplier may filter by the passengers'
        names). None only when the supplier certainly has no such order; SupplierError when it
        cannot tell (unreachable, an unreadable answer)."""

    @abstractmethod
    def quote_cancellation(self, order_id: str) -> CancellationQuote:
        """What cancelling would refund, without cancelling (a new quote: the supplier confirms
        only the most recent one). Raises SupplierError."""

    @abstractmethod
    def confirm_cancellation(self, quote_id: str) -> CancellationQuote:
        """Cancel the order the quote was for; returns the confirmed cancellation, whose refund
        may differ from the quote's. Raises SupplierOutcomeUnknown when the order may have been
        cancelled without our knowing it (a lost answer, a 5xx, an unreadable one): the order's
        `cancellation` tells later (`get_order`). SupplierError when it certainly was not."""

    @abstractmethod
    def get_cancellation(self, quote_id: str) -> CancellationQuote:
        """The cancellation (a quote, `confirmed_at` None, or confirmed, with what was really
        refunded) as the supplier has it now: read back after a confirmation whose answer was
        lost. Raises SupplierError when it cannot be read (nothing is settled then)."""

    @abstractmethod
    def list_airline_changes(self, order_id: str) -> list[AirlineChange]:
        """The airline-initiated changes of an order, answered or not (a read; SupplierError
        when the supplier cannot tell)."""

    @abstractmethod
    def accept_airline_change(self, change_id: str) -> AirlineChange:
        """Accept a change at the supplier; returns it as the supplier answers. Its answer is
        read back (`list_airline_changes`) before anything is recorded: a lost one is a
        SupplierError whose message says to check first."""

    @abstractmethod
    def offer_services(self, offer) -> list[SupplierService]:
        """The extra bags sold with a stored offer (Duffel's offer `available_services`; seats
        are in the seat maps). Raises SupplierError."""

    @abstractmethod
    def offer_seat_maps(self, offer) -> list[SeatMap]:
        """The seat maps of a stored offer's segments (none when the airline has none)."""

    @abstractmethod
    def order_services(self, *, order_id: str, booking) -> list[SupplierService]:
        """The extra bags that can still be added to a paid order (Duffel's order
        `available_services`); `booking` is ours, for a supplier that needs its slices."""

    @abstractmethod
    def add_order_services(
        self,
        *,
        order_id: str,
        booking,
        services: tuple[ServiceRequest, ...],
        amount: Decimal,
        currency: str,
    ) -> SupplierOrder:
        """Buy `services` for a paid order, paying `amount` (their total) from the supplier
        balance. Raises SupplierOutcomeUnknown when they may have been bought without our
        knowing it (the order's `services` tell later), SupplierError when certainly not."""
