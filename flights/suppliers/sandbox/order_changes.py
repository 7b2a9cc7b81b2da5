"""The sandbox airline's order changes (Duffel's order change requests, offers and changes).

A change request searches the sandbox for the slices to add, on the order's airline, and offers
its two best journeys. Each is priced as an airline prices a rebooking: the new slices' fare (the
search's price, in the order's currency) minus the removed slices' share of the order's total,
plus the fare's change penalty; a negative difference is refunded (`refund_to`
`original_form_of_payment`). Only a ticketed order whose fare allows changes can be changed.
Its offers live QUOTE_MINUTES. The offers and changes are kept in `SandboxOrderChange`; a
confirmed change re-books the order at its new total.

Scenarios (docs/sandbox.md), by a passenger's family name (any case): CHANGE_CHEAPER (the new
fares at 30% and 40% of the removed share: a refund to the original form of payment), CHANGE_VOUCHER
(the same, to a voucher), CHANGE_REFUSED (the airline refuses any change), CHANGE_LOST (the
confirmation is made and its answer lost)."""

import dataclasses
import secrets
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from core.exceptions import register_error
from core.money import q
from flights.models import SandboxOrderChange
from flights.suppliers.base import SearchRequest, SearchSlice, SupplierError, SupplierOutcomeUnknown
from flights.suppliers.order_changes import (
    BookedOrder,
    ChangeSlice,
    SupplierChangeOffer,
    SupplierChangeRequest,
    SupplierOrderChange,
)
from flights.suppliers.sandbox.common import ceil_second, per_usd
from flights.suppliers.sandbox.fares import QUOTE_MINUTES
from flights.suppliers.sandbox.orders import OrderState, current_order, rebook_order

CHANGE_CHEAPER_FAMILY_NAME = "Changecheaper"
CHANGE_VOUCHER_FAMILY_NAME = "Changevoucher"
CHANGE_REFUSED_FAMILY_NAME = "Changerefused"
CHANGE_LOST_FAMILY_NAME = "Changelost"
CHANGE_OFFERS = 2
CHEAPER = Decimal("0.3")  # of the removed share: less than any penalty leaves (at most half)

CHANGE_NOT_ALLOWED = "The airline does not allow changes to this order"
for _code, _message in (
    ("change_not_allowed", CHANGE_NOT_ALLOWED + " ({reason})"),
    ("order_change_offer_not_found", "Unknown sandbox order change offer"),
    ("order_change_not_found", "Unknown sandbox order change"),
    ("order_change_offer_expired", "The order change offer has expired"),
    ("order_change_already_confirmed", "The order change has already been confirmed"),
    ("payment_amount_mismatch", "Payment must be {amount} {currency}"),
):
    register_error(_code, SupplierError.status_code, _message, module="flights.suppliers.sandbox")


def _scenario(order: BookedOrder, name: str) -> bool:
    return any(f.strip().casefold() == name.casefold() for f in order.family_names)


def _refused(reason: str) -> SupplierError:
    return SupplierError(f"{CHANGE_NOT_ALLOWED} ({reason})", code="change_not_allowed")


def request(
    search, *, order: BookedOrder, remove: tuple[int, ...], add: tuple[ChangeSlice, ...]
) -> SupplierChangeRequest:
    """`search`: the sandbox's search (SandboxSupplier.search)."""
    current = current_order(order.order_id)
    if current.cancelled:
        raise _refused("the order is cancelled")
    if not current.documents:
        raise _refused("the order is not ticketed")
    if not order.change_allowed:
        raise _refused("the fare's conditions do not allow changes")
    if _scenario(order, CHANGE_REFUSED_FAMILY_NAME):
        raise _refused(f"sandbox scenario: {CHANGE_REFUSED_FAMILY_NAME}")
    if not add or any(position >= len(order.slices) for position in remove):
        raise SupplierError("The change must remove slices of the order and add slices")
    state = OrderState.decode(current.supplier_order_id)
    found = [
        offer
        for offer in search(
            SearchRequest(
                slices=tuple(
                    SearchSlice(
                        origin=s.origin,
                        destination=s.destination,
                        origin_airports=(s.origin,),
                        destination_airports=(s.destination,),
                        departure_date=s.departure_date,
                    )
                    for s in add
                ),
                passengers=order.passenger_types,
                cabin_class=add[0].cabin_class,
            )
        )
        if offer.owner == state.owner
    ][:CHANGE_OFFERS]
    now = timezone.now()
    expires_at = ceil_second(now) + timedelta(minutes=QUOTE_MINUTES)
    total = state.total_amount
    share = q(total * len(remove) / len(order.slices))
    penalty = order.change_penalty or Decimal("0.00")
    cheaper = _scenario(order, CHANGE_CHEAPER_FAMILY_NAME) or _scenario(
        order, CHANGE_VOUCHER_FAMILY_NAME
    )
    offers = []
    for position, offer in enumerate(found):
        if cheaper:
            fare = q(share * (CHEAPER + Decimal(position) / 10))
        else:  # the new slices' fare, in the order's currency
            fare = q(offer.total_amount * per_usd(state.currency) / per_usd(offer.total_currency))
        change_total = fare - share + penalty
        refund_to = None
        if change_total < 0:
            voucher = _scenario(order, CHANGE_VOUCHER_FAMILY_NAME)
            refund_to = "voucher" if voucher else "original_form_of_payment"
        supplier_offer = SupplierChangeOffer(
            supplier_offer_id=f"sbx_oco_{secrets.token_hex(8)}",
            added=offer.slices,
            removed=remove,
            change_total_amount=change_total,
            change_total_currency=state.currency,
            penalty_amount=penalty,
            penalty_currency=state.currency,
            new_total_amount=total + change_total,
            new_total_currency=state.currency,
            refund_to=refund_to,
            expires_at=expires_at,
        )
        SandboxOrderChange.objects.create(
            id=supplier_offer.supplier_offer_id,
            booking_reference=state.booking_reference,
            data={
                "order_id": order.order_id,
                "change_total_amount": f"{change_total:.2f}",
                "new_total_amount": f"{total + change_total:.2f}",
                "currency": state.currency,
                "refund_to": refund_to,
                "expires_at": expires_at.isoformat(),
                "lost": _scenario(order, CHANGE_LOST_FAMILY_NAME),
            },
            created_at=now,
        )
        offers.append(supplier_offer)
    return SupplierChangeRequest(
        supplier_request_id=f"sbx_ocr_{secrets.token_hex(8)}",
        offers=tuple(offers),
        created_at=now,
    )


def _change(row: SandboxOrderChange) -> SupplierOrderChange:
    data = row.data
    return SupplierOrderChange(
        supplier_change_id=row.change_id,
        order_id=data["order_id"],
        change_total_amount=Decimal(data["change_total_amount"]),
        change_total_currency=data["currency"],
        new_total_amount=Decimal(data["new_total_amount"]),
        new_total_currency=data["currency"],
        refund_to=data["refund_to"],
        confirmed_at=row.confirmed_at,
    )


def _expired(row: SandboxOrderChange) -> bool:
    return timezone.now() > datetime.fromisoformat(row.data["expires_at"])


def create(*, change_offer_id: str) -> SupplierOrderChange:
    row = SandboxOrderChange.objects.filter(pk=change_offer_id).first()
    if row is None:
        raise SupplierError(
            "Unknown sandbox order change offer", code="order_change_offer_not_found"
        )
    if _expired(row):
        raise SupplierError("The order change offer has expired", code="order_change_offer_expired")
    if not row.change_id:
        row.change_id = f"sbx_oce_{secrets.token_hex(8)}"
        SandboxOrderChange.objects.filter(pk=row.pk, change_id="").update(change_id=row.change_id)
        row.refresh_from_db()
    return _change(row)


def confirm(*, change_id: str, amount: Decimal, currency: str) -> SupplierOrderChange:
    row = SandboxOrderChange.objects.filter(change_id=change_id).first() if change_id else None
    if row is None:
        raise SupplierError("Unknown sandbox order change", code="order_change_not_found")
    if row.confirmed_at is not None:
        raise SupplierError(
            "The order change has already been confirmed", code="order_change_already_confirmed"
        )
    if _expired(row):
        raise SupplierError("The order change offer has expired", code="order_change_offer_expired")
    change = _change(row)
    due = max(change.change_total_amount, Decimal("0.00"))
    if currency != change.change_total_currency or Decimal(str(amount)) != due:
        raise SupplierError(
            f"Payment must be {due:.2f} {change.change_total_currency}",
            code="payment_amount_mismatch",
        )
    now = timezone.now()
    if not SandboxOrderChange.objects.filter(pk=row.pk, confirmed_at__isnull=True).update(
        confirmed_at=now
    ):
        raise SupplierError(
            "The order change has already been confirmed", code="order_change_already_confirmed"
        )
    state = OrderState.decode(current_order(row.data["order_id"]).supplier_order_id)
    rebook_order(dataclasses.replace(state, total_amount=change.new_total_amount))
    if row.data.get("lost"):
        raise SupplierOutcomeUnknown(
            "The flight supplier has not confirmed the outcome yet (sandbox scenario: the "
            "answer was lost after the request was sent)"
        )
    return dataclasses.replace(change, confirmed_at=now.astimezone(UTC))


def get(change_id: str) -> SupplierOrderChange:
    row = SandboxOrderChange.objects.filter(change_id=change_id).first() if change_id else None
    if row is None:
        raise SupplierError("Unknown sandbox order change", code="order_change_not_found")
    return _change(row)
