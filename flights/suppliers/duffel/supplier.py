"""DuffelSupplier: the FlightSupplier of a team's Duffel integration, each call one of the
resource modules (`offer_requests`, `orders`, `payments`, `order_cancellations`,
`airline_initiated_changes`) through one
HTTP client (`http_client`)."""

import dataclasses
from datetime import datetime
from decimal import Decimal

import requests

from flights.suppliers.base import (
    AirlineChange,
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
from flights.suppliers.duffel import (
    airline_initiated_changes,
    available_services,
    offer_requests,
    order_cancellations,
    order_changes,
    orders,
    payments,
)
from flights.suppliers.duffel.errors import PAID_NOT_READ, outcome_unknown
from flights.suppliers.duffel.http_client import DuffelClient
from flights.suppliers.duffel.offer_requests import SUPPLIER_TIMEOUT_MS
from flights.suppliers.order_changes import (
    BookedOrder,
    ChangeSlice,
    SupplierChangeRequest,
    SupplierOrderChange,
)


class DuffelSupplier(FlightSupplier):
    name = "duffel"

    def __init__(
        self,
        *,
        access_token: str,
        base_url: str | None = None,
        supplier_timeout_ms: int | None = SUPPLIER_TIMEOUT_MS,
        session: requests.Session | None = None,
    ):
        self.client = DuffelClient(access_token=access_token, base_url=base_url, session=session)
        self.supplier_timeout_ms = supplier_timeout_ms

    @property
    def base_url(self) -> str:
        return self.client.base_url

    @property
    def session(self) -> requests.Session:
        return self.client.session

    def __repr__(self) -> str:
        return f"<DuffelSupplier {self.base_url}>"  # never the token

    def search(self, request: SearchRequest) -> list[SupplierOffer]:
        return offer_requests.create(
            self.client, request, supplier_timeout_ms=self.supplier_timeout_ms
        )

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
        return orders.create(
            self.client,
            offer=offer,
            passengers=passengers,
            instant=instant,
            amount=amount,
            currency=currency,
            booking_id=booking_id,
            services=services,
        )

    def pay_order(self, *, order_id: str, amount: Decimal, currency: str) -> SupplierOrder:
        payments.create(self.client, order_id=order_id, amount=amount, currency=currency)
        try:
            return self.get_order(order_id)
        except SupplierError as exc:  # paid all the same: paying again must not look safe
            raise outcome_unknown(PAID_NOT_READ, exc.details) from exc

    def get_order(self, order_id: str) -> SupplierOrder:
        """The order; a cancelled one whose body does not carry its cancellation gets it from
        the order's cancellations (what was refunded is needed to settle it)."""
        order = orders.get(self.client, order_id)
        if order.cancelled and order.cancellation is None:
            confirmed = order_cancellations.confirmed_of(self.client, order_id)
            if confirmed is not None:
                order = dataclasses.replace(order, cancellation=confirmed)
        return order

    def request_order_change(
        self, *, order: BookedOrder, remove: tuple[int, ...], add: tuple[ChangeSlice, ...]
    ) -> SupplierChangeRequest:
        return order_changes.request(self.client, order=order, remove=remove, add=add)

    def create_order_change(self, *, change_offer_id: str) -> SupplierOrderChange:
        return order_changes.create(self.client, change_offer_id=change_offer_id)

    def confirm_order_change(
        self, *, change_id: str, amount: Decimal, currency: str
    ) -> SupplierOrderChange:
        return order_changes.confirm(
            self.client, change_id=change_id, amount=amount, currency=currency
        )

    def get_order_change(self, change_id: str) -> SupplierOrderChange:
        return order_changes.get(self.client, change_id)

    def find_order(
        self, *, booking_id: str, created_after: datetime, passengers: list[OrderPassenger]
    ) -> SupplierOrder | None:
        """`orders.find`. `created_after` excludes nothing: the booking id is ours alone, and
        Duffel's clock is not ours (an order stamped a second before our booking is still its
        order)."""
        return orders.find(self.client, booking_id=booking_id, passengers=passengers)

    def quote_cancellation(self, order_id: str) -> CancellationQuote:
        return order_cancellations.create(self.client, order_id)

    def confirm_cancellation(self, quote_id: str) -> CancellationQuote:
        return order_cancellations.confirm(self.client, quote_id)

    def get_cancellation(self, quote_id: str) -> CancellationQuote:
        return order_cancellations.get(self.client, quote_id)

    def list_airline_changes(self, order_id: str) -> list[AirlineChange]:
        return airline_initiated_changes.list_for_order(self.client, order_id)

    def accept_airline_change(self, change_id: str) -> AirlineChange:
        return airline_initiated_changes.accept(self.client, change_id)

    def offer_services(self, offer) -> list[SupplierService]:
        return available_services.offer_services(self.client, offer)

    def offer_seat_maps(self, offer) -> list[SeatMap]:
        return available_services.offer_seat_maps(self.client, offer)

    def order_services(self, *, order_id: str, booking) -> list[SupplierService]:
        return available_services.order_services(self.client, order_id)

    def add_order_services(
        self,
        *,
        order_id: str,
        booking,
        services: tuple[ServiceRequest, ...],
        amount: Decimal,
        currency: str,
    ) -> SupplierOrder:
        return available_services.add_order_services(
            self.client, order_id=order_id, services=services, amount=amount, currency=currency
        )
