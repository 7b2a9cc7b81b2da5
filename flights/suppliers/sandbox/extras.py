"""The sandbox's extras: extra checked bags and seats, sold with an offer or added to an order,
in Duffel's shapes (available services, seat maps). Deterministic: everything is worked out
again from the offer's (or booking's) slices, so a service id is recognised when it is bought
without being stored.

- Bags: one service per seated passenger and slice, for all the slice's segments, a checked bag
  of 23 kg (Duffel's `metadata`: `type`, `maximum_weight_kg`, dimensions), priced per segment
  (USD 25 plus 0.5 cent a kilometre, in the airline's currency, whole units), at most 3 checked
  bags in all per passenger (what the fare includes counts).
- Seats: one seat map per segment, in its cabin: rows and columns of the aircraft (3-3 on a
  narrow-body, 3-3-3 on a wide-body, 2-2 in business and first), two exit rows (extra legroom,
  adults only, with the airline's disclosures), front rows that cost more, about a quarter of
  the seats taken, and the others free unless the fare includes no checked bag (a basic fare
  pays for any seat).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from flights.suppliers.base import SeatMap, ServiceRequest, SupplierError, SupplierService
from flights.suppliers.sandbox.common import digest, per_usd, stable_int

BAG_KG = 23
MAX_CHECKED_BAGS = 3
BAG_USD_PER_SEGMENT = Decimal("25")
BAG_USD_PER_KM = Decimal("0.005")
FRONT_SEAT_USD = Decimal("15")
EXIT_SEAT_USD = Decimal("30")
BASIC_SEAT_USD = Decimal("8")
WIDE_BODIES = frozenset({"332", "333", "339", "359", "388", "748", "772", "77W", "788", "789"})
EXIT_DISCLOSURES = [
    "Do not seat children in exit row seats",
    "Do not seat passengers with special needs in exit row seats",
]
SEATED = ("adult", "child")


@dataclass(frozen=True)
class Trip:
    """What the extras are worked out from: an offer's or a booking's slices (as the API shows
    them), the airline's currency, the seated passengers `(supplier id, type)`, and a key that
    makes the ids of one offer (or order) its own."""

    key: str
    currency: str
    slices: Sequence[dict]
    passengers: Sequence[tuple[str, str]]


def _id(*parts: object) -> str:
    return "ase_sbx" + digest("sandbox-service", *parts, size=10).hex()


def _in_currency(usd: Decimal, currency: str) -> Decimal:
    return (
        (usd * per_usd(currency))
        .quantize(Decimal("1"), rounding=ROUND_HALF_UP)
        .quantize(Decimal("0.01"))
    )


def _checked(segment: dict, passenger_index: int) -> int:
    passengers = segment.get("passengers") or []
    if not passengers:
        return 0
    entry = passengers[min(passenger_index, len(passengers) - 1)]
    return sum(b["quantity"] for b in entry.get("baggages") or [] if b["type"] == "checked")


def bags(trip: Trip) -> list[SupplierService]:
    services = []
    for index, (passenger_id, kind) in enumerate(trip.passengers):
        if kind not in SEATED:
            continue
        for s, slice_ in enumerate(trip.slices):
            segments = slice_["segments"]
            included = max(_checked(segment, index) for segment in segments)
            room = MAX_CHECKED_BAGS - included
            if room <= 0:
                continue
            usd = sum(
                (
                    BAG_USD_PER_SEGMENT + BAG_USD_PER_KM * Decimal(str(seg.get("distance") or 0))
                    for seg in segments
                ),
                Decimal(0),
            )
            services.append(
                SupplierService(
                    id=_id(trip.key, "bag", passenger_id, s),
                    type="baggage",
                    passenger_ids=(passenger_id,),
                    segments=tuple((s, g) for g in range(len(segments))),
                    maximum_quantity=room,
                    total_amount=_in_currency(usd, trip.currency),
                    total_currency=trip.currency,
                    metadata={
                        "type": "checked",
                        "maximum_weight_kg": BAG_KG,
                        "maximum_length_cm": 80,
                        "maximum_height_cm": 50,
                        "maximum_depth_cm": 30,
                    },
                )
            )
    return services


def _layout(segment: dict) -> tuple[list[str], int, int]:
    """Column groups (one string per section), first row, number of rows."""
    cabin = (segment.get("passengers") or [{}])[0].get("cabin_class") or "economy"
    wide = (segment.get("aircraft") or {}).get("iata_code") in WIDE_BODIES
    if cabin in ("business", "first"):
        return (["AC", "DG", "HK"] if wide else ["AC", "DF"]), 1, 6 if wide else 4
    if cabin == "premium_economy":
        return (["AC", "DEFG", "HK"] if wide else ["ABC", "DEF"]), 7, 4
    return (["ABC", "DEFG", "HJK"] if wide else ["ABC", "DEF"]), 10, 36 if wide else 24


def seat_maps(trip: Trip) -> list[SeatMap]:
    seated = [(pid, kind) for pid, kind in trip.passengers if kind in SEATED]
    maps = []
    for s, slice_ in enumerate(trip.slices):
        for g, segment in enumerate(slice_["segments"]):
            basic = _checked(segment, 0) == 0
            groups, first_row, count = _layout(segment)
            cabin = (segment.get("passengers") or [{}])[0].get("cabin_class") or "economy"
            exits = {first_row + 2, first_row + 3} if cabin == "economy" else set()
            rows: list[dict] = []
            for row in range(first_row, first_row + count):
                if row in exits and row - 1 not in exits:
                    rows.append(
                        {
                            "sections": [
                                {"elements": [{"type": "exit_row"}]},
                                *([{"elements": []}] * (len(groups) - 2)),
                                {"elements": [{"type": "exit_row"}]},
                            ]
                        }
                    )
                sections = []
                for group in groups:
                    elements = []
                    for column in group:
                        designator = f"{row}{column}"
                        taken = stable_int(trip.key, s, g, designator) % 4 == 0
                        if row in exits:
                            usd, name, disclosures = (
                                EXIT_SEAT_USD,
                                "Extra legroom",
                                EXIT_DISCLOSURES,
                            )
                        elif row < first_row + 2 and cabin == "economy":
                            usd, name, disclosures = FRONT_SEAT_USD, "Front seat", []
                        else:
                            usd, name, disclosures = (
                                (BASIC_SEAT_USD if basic else Decimal(0)),
                                "",
                                [],
                            )
                        services = []
                        if not taken:
                            for pid, kind in seated:
                                if row in exits and kind != "adult":
                                    continue
                                services.append(
                                    {
                                        "id": _id(trip.key, "seat", s, g, designator, pid),
                                        "passenger_id": pid,
                                        "total_amount": str(_in_currency(usd, trip.currency)),
                                        "total_currency": trip.currency,
                                    }
                                )
                        elements.append(
                            {
                                "type": "seat",
                                "designator": designator,
                                "name": name,
                                "disclosures": list(disclosures),
                                "available_services": services,
                            }
                        )
                    sections.append({"elements": elements})
                rows.append({"sections": sections})
            rows.append(
                {
                    "sections": [
                        {"elements": [{"type": "lavatory"}]},
                        *([{"elements": []}] * (len(groups) - 2)),
                        {"elements": [{"type": "galley"}]},
                    ]
                }
            )
            maps.append(
                SeatMap(
                    id="sea_sbx" + digest("sandbox-seat-map", trip.key, s, g, size=8).hex(),
                    segment=(s, g),
                    cabins=[
                        {
                            "cabin_class": cabin,
                            "deck": 0,
                            "aisles": len(groups) - 1,
                            "wings": {"first_row_index": 4, "last_row_index": 12},
                            "rows": rows,
                        }
                    ],
                )
            )
    return maps


def seat_services(trip: Trip) -> list[SupplierService]:
    """Every seat of the seat maps as a service (one passenger, one segment, one unit)."""
    found = []
    for seat_map in seat_maps(trip):
        for cabin in seat_map.cabins:
            for row in cabin["rows"]:
                for section in row["sections"]:
                    for element in section["elements"]:
                        for service in element.get("available_services") or []:
                            found.append(
                                SupplierService(
                                    id=service["id"],
                                    type="seat",
                                    passenger_ids=(service["passenger_id"],),
                                    segments=(seat_map.segment,),
                                    maximum_quantity=1,
                                    total_amount=Decimal(service["total_amount"]),
                                    total_currency=service["total_currency"],
                                    metadata={
                                        "designator": element["designator"],
                                        "name": element["name"],
                                        "disclosures": element["disclosures"],
                                    },
                                )
                            )
    return found


def services_total(available: list[SupplierService], requests: Sequence[ServiceRequest]) -> Decimal:
    """What the requested services cost; SupplierError for one that is not sold, too many of
    one, or two seats for a passenger on a segment (or one seat twice)."""
    by_id = {service.id: service for service in available}
    total = Decimal("0.00")
    seats: set[tuple] = set()
    for request in requests:
        service = by_id.get(request.id)
        if service is None:
            raise SupplierError(f"Unknown service {request.id}", code="service_not_available")
        if not 1 <= request.quantity <= service.maximum_quantity:
            raise SupplierError(
                f"At most {service.maximum_quantity} of service {request.id}",
                code="service_quantity_invalid",
            )
        if service.type == "seat":
            keys = {
                (service.passenger_ids, service.segments),
                ("seat", service.segments, service.metadata.get("designator")),
            }
            if keys & seats:
                raise SupplierError(
                    "One seat per passenger and segment", code="service_quantity_invalid"
                )
            seats |= keys
        total += service.total_amount * request.quantity
    return total
