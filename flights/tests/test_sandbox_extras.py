"""The sandbox's extras (flights/suppliers/sandbox/extras.py): deterministic, realistic bags and
seat maps, and what buying them checks."""

from decimal import Decimal

import pytest

from flights.suppliers.base import ServiceRequest, SupplierError
from flights.suppliers.sandbox import extras


def segment(*, checked: int, aircraft: str = "32N", cabin: str = "economy", distance="1000.0"):
    return {
        "aircraft": {"iata_code": aircraft},
        "distance": distance,
        "passengers": [
            {"cabin_class": cabin, "baggages": [{"type": "checked", "quantity": checked}]}
        ]
        * 3,
    }


def trip(*segments, key="sbx_off_1"):
    return extras.Trip(
        key=key,
        currency="BRL",
        slices=[{"segments": list(segments)}],
        passengers=[
            ("sbx_pas_1", "adult"),
            ("sbx_pas_2", "child"),
            ("sbx_pas_3", "infant_without_seat"),
        ],
    )


def test_bags_are_23_kg_priced_per_segment_and_count_what_the_fare_includes():
    basic = extras.bags(trip(segment(checked=0), segment(checked=0)))
    assert [b.passenger_ids for b in basic] == [("sbx_pas_1",), ("sbx_pas_2",)]  # no infant
    bag = basic[0]
    assert bag.segments == ((0, 0), (0, 1))
    assert bag.maximum_quantity == 3
    assert bag.metadata["maximum_weight_kg"] == 23
    # Two segments of 1000 km: 2 × (25 + 5) USD at 5.35 BRL, whole reais.
    assert bag.total_amount == Decimal("321.00")
    one = extras.bags(trip(segment(checked=0)))[0]
    assert one.total_amount == Decimal("161.00")
    assert extras.bags(trip(segment(checked=1)))[0].maximum_quantity == 2
    assert extras.bags(trip(segment(checked=3))) == []


def test_seat_maps_are_the_same_every_time_with_exit_rows_for_adults_only():
    first = extras.seat_maps(trip(segment(checked=1)))
    assert first == extras.seat_maps(trip(segment(checked=1)))
    [seat_map] = first
    rows = seat_map.cabins[0]["rows"]
    seats = {
        e["designator"]: e
        for row in rows
        for section in row["sections"]
        for e in section["elements"]
        if e["type"] == "seat"
    }
    assert len(seats) == 24 * 6
    exit_seats = [e for d, e in seats.items() if d[:-1] in ("12", "13")]
    assert all(e["name"] == "Extra legroom" and e["disclosures"] for e in exit_seats)
    assert all(
        s["passenger_id"] == "sbx_pas_1" for e in exit_seats for s in e["available_services"]
    )
    free = [s for d, e in seats.items() if int(d[:-1]) > 13 for s in e["available_services"]]
    assert free and all(s["total_amount"] == "0.00" for s in free)
    taken = [e for e in seats.values() if not e["available_services"]]
    assert 0.15 < len(taken) / len(seats) < 0.35
    # A fare without a checked bag pays for any seat; a wide-body has 3-4-3.
    basic = extras.seat_services(trip(segment(checked=0)))
    assert all(s.total_amount > 0 for s in basic)
    wide = extras.seat_maps(trip(segment(checked=1, aircraft="789")))[0]
    assert [len(s["elements"]) for s in wide.cabins[0]["rows"][0]["sections"]] == [3, 4, 3]


def test_buying_checks_ids_quantities_and_one_seat_each():
    booked = trip(segment(checked=0))
    sold = extras.bags(booked) + extras.seat_services(booked)
    bag = sold[0]
    assert extras.services_total(sold, [ServiceRequest(bag.id, 2)]) == bag.total_amount * 2
    with pytest.raises(SupplierError) as unknown:
        extras.services_total(sold, [ServiceRequest("ase_nothing", 1)])
    assert unknown.value.code == "service_not_available"
    with pytest.raises(SupplierError) as too_many:
        extras.services_total(sold, [ServiceRequest(bag.id, 4)])
    assert too_many.value.code == "service_quantity_invalid"
    adult_seats = [s for s in sold if s.type == "seat" and s.passenger_ids == ("sbx_pas_1",)]
    with pytest.raises(SupplierError):
        extras.services_total(
            sold, [ServiceRequest(adult_seats[0].id, 1), ServiceRequest(adult_seats[1].id, 1)]
        )
