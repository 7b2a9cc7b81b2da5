"""The sandbox airline's schedule changes (Duffel's AirlineInitiatedChange): an order of the
schedule-change scenario has, from the moment it is made, one change that moves its first slice
SCHEDULE_CHANGE_MINUTES later (`removed`: the slice as booked; `added`: the same flights, later).
It can be accepted (`accept`) or the order cancelled (a cancellation quote then refunds the
whole fare: the airline's involuntary refund); the order book keeps it (`SandboxOrder`)."""

import re
from datetime import datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from core.timestamps import iso_utc
from flights.models import CabinClass, SandboxOrder
from flights.suppliers.base import (
    AirlineChange,
    Baggage,
    SupplierError,
    SupplierSegment,
    SupplierSlice,
)
from flights.suppliers.sandbox.orders import OrderState
from flights.suppliers.sandbox.scenarios import SCHEDULE_CHANGE_MINUTES

CHANGE_PREFIX = "sbx_aic_"
DURATION = re.compile(r"^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?$")


def record_schedule_change(booking_reference: str, offer, now: datetime) -> None:
    """The scenario's change of a new order, from the booked offer's first slice (its wire
    shape, as a booking keeps it)."""
    data = getattr(offer, "data", None)
    slices = data.get("slices") if isinstance(data, dict) else None
    if not slices:
        return
    booked = slices[0]
    shift = timedelta(minutes=SCHEDULE_CHANGE_MINUTES)
    moved = {
        **booked,
        "segments": [
            {
                **segment,
                "departing_at": _later(segment["departing_at"], shift),
                "arriving_at": _later(segment["arriving_at"], shift),
            }
            for segment in booked["segments"]
        ],
    }
    SandboxOrder.objects.filter(pk=booking_reference, airline_change__isnull=True).update(
        airline_change={
            "id": f"{CHANGE_PREFIX}{booking_reference}",
            "removed": [booked],
            "added": [moved],
            "action_taken": None,
            "action_taken_at": None,
            "created_at": iso_utc(now),
        }
    )


def changes_of(order_id: str) -> list[AirlineChange]:
    state = OrderState.decode(order_id)
    entry = SandboxOrder.objects.filter(pk=state.booking_reference).first()
    if entry is None or not entry.airline_change:
        return []
    return [_change(entry)]


def accept(change_id: str) -> AirlineChange:
    entry = _entry(change_id)
    change = _change(entry)
    if change.action_taken is not None or "accept" not in change.available_actions:
        raise SupplierError(
            "This airline-initiated change has already been actioned",
            code="supplier_error",
        )
    entry.airline_change = {
        **(entry.airline_change or {}),
        "action_taken": "accepted",
        "action_taken_at": iso_utc(timezone.now()),
    }
    SandboxOrder.objects.filter(pk=entry.pk).update(airline_change=entry.airline_change)
    return _change(entry)


def unanswered_change(booking_reference: str) -> bool:
    """Whether the order has a change not actioned yet (its cancellation refunds in full)."""
    entry = SandboxOrder.objects.filter(pk=booking_reference).first()
    return bool(entry and entry.airline_change and not entry.airline_change["action_taken"])


def cancel_on_change(booking_reference: str) -> None:
    """The order was cancelled while its change was unanswered: the change's action."""
    entry = SandboxOrder.objects.filter(pk=booking_reference).first()
    if entry and entry.airline_change and not entry.airline_change["action_taken"]:
        SandboxOrder.objects.filter(pk=entry.pk).update(
            airline_change={
                **entry.airline_change,
                "action_taken": "cancelled",
                "action_taken_at": iso_utc(timezone.now()),
            }
        )


def _entry(change_id: str) -> SandboxOrder:
    reference = change_id.removeprefix(CHANGE_PREFIX) if change_id.startswith(CHANGE_PREFIX) else ""
    entry = SandboxOrder.objects.filter(pk=reference).first() if reference else None
    if entry is None or not entry.airline_change:
        raise SupplierError("Unknown sandbox airline-initiated change", code="supplier_not_found")
    return entry


def _change(entry: SandboxOrder) -> AirlineChange:
    data = entry.airline_change or {}
    taken = data.get("action_taken")
    cancelled = bool(entry.cancellation)
    return AirlineChange(
        supplier_change_id=data["id"],
        order_id=entry.order_id,
        added=tuple(_slice(s) for s in data["added"]),
        removed=tuple(_slice(s) for s in data["removed"]),
        available_actions=() if taken or cancelled else ("accept", "cancel"),
        action_taken=taken or ("cancelled" if cancelled else None),
        action_taken_at=_instant(data.get("action_taken_at")),
        created_at=_instant(data.get("created_at")),
    )


def _later(local: str, shift: timedelta) -> str:
    return (datetime.fromisoformat(local) + shift).isoformat(timespec="seconds")


def _instant(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None


def _minutes(text: str | None) -> int:
    match = DURATION.match(text or "")
    if not match:
        return 0
    days, hours, minutes = (int(part or 0) for part in match.groups())
    return days * 1440 + hours * 60 + minutes


def _slice(data: dict) -> SupplierSlice:
    """A slice in its wire shape read back into the supplier's terms."""
    segments = tuple(_segment(s) for s in data["segments"])
    return SupplierSlice(
        origin=segments[0].origin,
        destination=segments[-1].destination,
        duration_minutes=_minutes(data.get("duration")),
        segments=segments,
        fare_brand_name=data.get("fare_brand_name") or "",
    )


def _segment(data: dict) -> SupplierSegment:
    passenger = (data.get("passengers") or [{}])[0]
    return SupplierSegment(
        origin=data["origin"]["iata_code"],
        destination=data["destination"]["iata_code"],
        origin_terminal=data["origin"].get("terminal"),
        destination_terminal=data["destination"].get("terminal"),
        departing_at=datetime.fromisoformat(data["departing_at"]),
        arriving_at=datetime.fromisoformat(data["arriving_at"]),
        marketing_carrier=data["marketing_carrier"]["iata_code"],
        marketing_flight_number=data["marketing_carrier_flight_number"],
        operating_carrier=data["operating_carrier"]["iata_code"],
        operating_flight_number=data["operating_carrier_flight_number"],
        aircraft=(data.get("aircraft") or {}).get("iata_code") or "",
        duration_minutes=_minutes(data.get("duration")),
        distance_km=Decimal(str(data.get("distance") or "0")),
        cabin_class=CabinClass(passenger.get("cabin_class") or CabinClass.ECONOMY),
        cabin_class_marketing_name=passenger.get("cabin_class_marketing_name") or "",
        fare_basis_code=passenger.get("fare_basis_code") or "",
        baggages=tuple(
            Baggage(type=b["type"], quantity=int(b["quantity"]))
            for b in passenger.get("baggages") or []
        ),
    )
