"""The sandbox supplier: plausible, self-consistent and deterministic offers, its documented
scenarios, and stateless orders."""

import dataclasses
import itertools
import re
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
import time_machine

from flights import airports
from flights.reference import AIRCRAFT, AIRLINES
from flights.suppliers import sandbox
from flights.suppliers.base import (
    OrderPassenger,
    SearchRequest,
    SearchSlice,
    SupplierError,
    SupplierOffer,
    SupplierOutcomeUnknown,
)
from flights.suppliers.sandbox import SandboxSupplier

NOW = datetime(2026, 3, 2, 15, 0, 0, 123456, tzinfo=UTC)
OUT = date(2026, 4, 10)
BACK = date(2026, 4, 20)


@pytest.fixture
def supplier():
    return SandboxSupplier()


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def _slice(origin: str, destination: str, day: date) -> SearchSlice:
    return SearchSlice(
        origin=origin,
        destination=destination,
        origin_airports=airports.resolve(origin),
        destination_airports=airports.resolve(destination),
        departure_date=day,
    )


def round_trip(origin, destination, out=OUT, back=BACK, passengers=("adult",), cabin="economy"):
    return SearchRequest(
        slices=(_slice(origin, destination, out), _slice(destination, origin, back)),
        passengers=tuple(passengers),
        cabin_class=cabin,
    )


def one_way(origin, destination, day=OUT, passengers=("adult",), cabin="economy"):
    return SearchRequest(
        slices=(_slice(origin, destination, day),), passengers=tuple(passengers), cabin_class=cabin
    )


def multi_city(*legs, passengers=("adult",)):
    return SearchRequest(slices=tuple(_slice(*leg) for leg in legs), passengers=tuple(passengers))


def utc(local: datetime, airport: str) -> datetime:
    zone = ZoneInfo(airports.airport(airport).time_zone)
    return local.replace(tzinfo=zone).astimezone(UTC)


def without_clock(offer: SupplierOffer) -> SupplierOffer:
    return dataclasses.replace(
        offer, expires_at=None, payment_required_by=None, price_guarantee_expires_at=None
    )


# --- Determinism ---------------------------------------------------------------------------------


def test_same_request_same_offers_in_the_same_order(supplier):
    request = round_trip("GRU", "LIS")
    with time_machine.travel(NOW, tick=False):
        first = supplier.search(request)
    with time_machine.travel(NOW + timedelta(minutes=7, seconds=3), tick=False):
        second = supplier.search(request)
    assert [without_clock(o) for o in first] == [without_clock(o) for o in second]
    assert first[0].expires_at != second[0].expires_at


def test_same_request_at_the_same_instant_is_fully_equal(supplier, frozen):
    request = round_trip("SAO", "RIO", passengers=("adult", "child", "infant_without_seat"))
    assert supplier.search(request) == supplier.search(
        round_trip("SAO", "RIO", passengers=("adult", "child", "infant_without_seat"))
    )


def test_caches_do_not_change_results(supplier, frozen):
    request = round_trip("GRU", "MIA")
    warm = supplier.search(request)
    sandbox.clear_caches()
    assert supplier.search(request) == warm


def test_offers_are_built_like_their_dataclasses(supplier, frozen):
    """The sandbox builds segments and offers without their __init__, for speed: same result."""
    for offer in supplier.search(round_trip("GRU", "MIA"))[:10]:
        assert dataclasses.replace(offer) == offer
        for slice_ in offer.slices:
            for segment in slice_.segments:
                assert dataclasses.replace(segment) == segment
                assert set(vars(segment)) == {f.name for f in dataclasses.fields(segment)}


def test_another_date_gives_other_prices(supplier, frozen):
    first = supplier.search(round_trip("GRU", "LIS"))
    other = supplier.search(round_trip("GRU", "LIS", out=OUT + timedelta(days=1)))
    assert [o.total_amount for o in first] != [o.total_amount for o in other]


# --- Volume and airlines -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "destination"), [("GRU", "LIS"), ("GRU", "MIA"), ("GRU", "GIG")]
)
def test_busy_round_trips_return_at_least_50_offers(supplier, frozen, origin, destination):
    offers = supplier.search(round_trip(origin, destination))
    assert len(offers) >= 50
    assert len({o.supplier_offer_id for o in offers}) == len(offers)
    assert len({o.owner for o in offers}) >= 2


@pytest.mark.parametrize(
    ("origin", "destination", "allowed"),
    [
        ("GRU", "GIG", {"G3", "AD", "LA"}),
        ("GRU", "LIS", {"LA", "TP", "IB", "AF", "KL", "LH", "BA", "LX", "AD"}),
        ("GRU", "MIA", {"LA", "AA", "UA", "DL", "CM", "AV", "G3", "AD", "AC", "AM"}),
        ("GRU", "EZE", {"LA", "G3", "AD", "AR", "AV", "CM"}),
    ],
)
def test_airlines_fit_the_route(supplier, frozen, origin, destination, allowed):
    owners = {o.owner for o in supplier.search(round_trip(origin, destination))}
    assert owners <= allowed


def test_brazil_europe_has_direct_flights_and_connections_through_real_hubs(supplier, frozen):
    offers = supplier.search(round_trip("GRU", "LIS"))
    outbound = [o.slices[0] for o in offers]
    assert any(len(s.segments) == 1 for s in outbound)
    connections = {s.segments[0].destination for s in outbound if len(s.segments) == 2}
    assert connections & {"CDG", "AMS", "FRA", "MUC", "MAD", "LHR", "ZRH"}
    hubs = {hub for code in AIRLINES for hub in AIRLINES[code].hubs}
    assert connections <= hubs


def test_copa_connects_in_panama_and_avianca_in_bogota(supplier, frozen):
    offers = supplier.search(round_trip("GRU", "MIA"))
    stops = {
        (o.owner, s.segments[0].destination)
        for o in offers
        for s in o.slices[:1]
        if len(s.segments) > 1
    }
    assert ("CM", "PTY") in stops
    assert ("AV", "BOG") in stops


@pytest.mark.parametrize(
    "request_",
    [
        one_way("TBT", "CZS"),  # Tabatinga to Cruzeiro do Sul, deep in the Amazon
        one_way("NAN", "PPT"),  # Fiji to Tahiti
        one_way("ULN", "ALA"),  # Ulaanbaatar to Almaty
        round_trip("FEN", "BVB"),
    ],
    ids=["TBT-CZS", "NAN-PPT", "ULN-ALA", "FEN-BVB"],
)
def test_obscure_pairs_still_return_a_few_offers(supplier, frozen, request_):
    offers = supplier.search(request_)
    assert offers
    check_offers(request_, offers)


def test_a_cabin_no_airline_of_the_route_sells_gives_nothing(supplier, frozen):
    assert supplier.search(one_way("GRU", "GIG", cabin="first")) == []


# --- Every offer is consistent -------------------------------------------------------------------

SEARCHES = {
    "GRU-LIS round trip": round_trip("GRU", "LIS"),
    "SAO-RIO family": round_trip(
        "SAO", "RIO", passengers=("adult", "adult", "child", "infant_without_seat")
    ),
    "GRU-MIA business": round_trip("GRU", "MIA", cabin="business"),
    "LON-NYC premium": one_way("LON", "NYC", cabin="premium_economy"),
    "PAR-GRU first": one_way("PAR", "GRU", cabin="first"),
    "multi-city": multi_city(
        ("GRU", "LIS", OUT), ("LIS", "FRA", OUT + timedelta(days=4)), ("FRA", "GRU", BACK)
    ),
    "same day multi-city": multi_city(("CGH", "SDU", OUT), ("SDU", "BSB", OUT)),
    "POA-BUD": round_trip("POA", "BUD"),
    "NRT-SYD": round_trip("NRT", "SYD"),
}


@pytest.mark.parametrize("name", SEARCHES)
def test_every_offer_is_consistent(supplier, frozen, name):
    request = SEARCHES[name]
    offers = supplier.search(request)
    assert offers
    check_offers(request, offers)


def check_offers(request: SearchRequest, offers: list[SupplierOffer]) -> None:
    for offer in offers:
        check_money(offer)
        check_deadlines(offer)
        check_conditions(offer)
        assert offer.supplier_passenger_ids == tuple(
            f"sbx_pas_{n}" for n in range(1, len(request.passengers) + 1)
        )
        assert re.fullmatch(r"sbx_[0-9a-f]{24}", offer.supplier_offer_id)
        assert len(offer.slices) == len(request.slices)
        for asked, slice_ in zip(request.slices, offer.slices, strict=True):
            check_slice(asked, slice_, offer.owner, request.cabin_class)
        for earlier, later in itertools.pairwise(offer.slices):
            landed = utc(earlier.segments[-1].arriving_at, earlier.destination)
            leaves = utc(later.segments[0].departing_at, later.origin)
            assert leaves >= landed + timedelta(hours=1)


def check_money(offer: SupplierOffer) -> None:
    airline = AIRLINES[offer.owner]
    assert offer.total_currency == airline.currency
    assert offer.total_amount == offer.base_amount + offer.tax_amount
    for amount in (offer.total_amount, offer.base_amount, offer.tax_amount):
        assert isinstance(amount, Decimal)
        assert amount.as_tuple().exponent == -2
        assert amount > 0
    assert Decimal("0.09") <= offer.tax_amount / offer.base_amount <= Decimal("0.31")


def check_deadlines(offer: SupplierOffer) -> None:
    assert timedelta(minutes=15) <= offer.expires_at - NOW <= timedelta(minutes=30)
    first = offer.slices[0]
    departs = utc(first.segments[0].departing_at, first.origin)
    if offer.requires_instant_payment:
        assert offer.payment_required_by is None
        assert offer.price_guarantee_expires_at is None
    else:
        assert timedelta(hours=24) <= offer.payment_required_by - NOW <= timedelta(hours=72)
        assert offer.payment_required_by < departs
        assert NOW < offer.price_guarantee_expires_at <= offer.payment_required_by
    for moment in (offer.expires_at, offer.payment_required_by, offer.price_guarantee_expires_at):
        assert moment is None or moment.tzinfo is not None


def check_conditions(offer: SupplierOffer) -> None:
    for condition in (offer.refund_before_departure, offer.change_before_departure):
        if condition.allowed:
            assert condition.penalty_currency == offer.total_currency
            assert Decimal(0) <= condition.penalty_amount <= offer.total_amount
            assert condition.penalty_amount.as_tuple().exponent == -2
        else:
            assert condition.penalty_amount is None
            assert condition.penalty_currency is None


def check_slice(asked: SearchSlice, slice_, owner: str, cabin: str) -> None:
    airline = AIRLINES[owner]
    assert slice_.origin in asked.origin_airports
    assert slice_.destination in asked.destination_airports
    assert slice_.fare_brand_name in airline.brands[cabin]
    segments = slice_.segments
    assert 1 <= len(segments) <= 3
    assert (segments[0].origin, segments[-1].destination) == (slice_.origin, slice_.destination)
    assert segments[0].departing_at.date() == asked.departure_date
    for segment in segments:
        check_segment(segment, owner, cabin)
    for before, after in itertools.pairwise(segments):
        assert before.destination == after.origin
        connection = utc(after.departing_at, after.origin) - utc(
            before.arriving_at, before.destination
        )
        assert timedelta(hours=1) <= connection <= timedelta(hours=4)
    total = utc(segments[-1].arriving_at, slice_.destination) - utc(
        segments[0].departing_at, slice_.origin
    )
    assert slice_.duration_minutes == total / timedelta(minutes=1)


def check_segment(segment, owner: str, cabin: str) -> None:
    assert segment.departing_at.tzinfo is None and segment.arriving_at.tzinfo is None
    departs = utc(segment.departing_at, segment.origin)
    arrives = utc(segment.arriving_at, segment.destination)
    assert arrives > departs
    assert (arrives - departs) / timedelta(minutes=1) == segment.duration_minutes
    assert segment.duration_minutes % 5 == 0
    assert segment.distance_km == airports.great_circle_km(segment.origin, segment.destination)
    hours = float(segment.distance_km) / 800
    assert hours * 60 < segment.duration_minutes <= hours * 60 + 35
    assert segment.marketing_carrier == owner
    assert segment.operating_carrier in AIRLINES  # partners and, for odd trips, interlines
    assert re.fullmatch(r"\d{1,4}", segment.marketing_flight_number)
    assert re.fullmatch(r"\d{1,4}", segment.operating_flight_number)
    assert segment.aircraft in AIRCRAFT
    assert segment.aircraft in AIRLINES[segment.operating_carrier].fleet
    assert segment.cabin_class == cabin
    assert segment.cabin_class_marketing_name
    assert re.fullmatch(r"[A-Z]{4}[A-Z]{2}", segment.fare_basis_code)
    bags = {b.type: b.quantity for b in segment.baggages}
    assert bags["carry_on"] == 1
    assert bags["checked"] in (0, 1, 2)


def test_local_times_follow_each_airport_time_zone(supplier, frozen):
    offers = supplier.search(round_trip("GRU", "LIS"))
    direct = next(o for o in offers if len(o.slices[0].segments) == 1)
    segment = direct.slices[0].segments[0]
    # In April Lisbon is on summer time (UTC+1), Sao Paulo on UTC-3: 4 hours apart.
    local = (segment.arriving_at - segment.departing_at) / timedelta(minutes=1)
    assert local == segment.duration_minutes + 240


def test_city_codes_spread_offers_over_their_airports(supplier, frozen):
    offers = supplier.search(round_trip("SAO", "RIO"))
    origins = {o.slices[0].origin for o in offers}
    destinations = {o.slices[0].destination for o in offers}
    assert len(origins) >= 2 and origins <= {"CGH", "GRU", "VCP"}
    assert destinations == {"GIG", "SDU"}


def test_codeshares_show_the_operating_partner(supplier, frozen):
    offers = supplier.search(round_trip("CWB", "FRA"))
    shared = [
        segment
        for offer in offers
        for slice_ in offer.slices
        for segment in slice_.segments
        if segment.operating_carrier != segment.marketing_carrier
    ]
    assert shared
    for segment in shared:
        assert segment.operating_carrier in AIRLINES[segment.marketing_carrier].partners
        assert segment.operating_flight_number != segment.marketing_flight_number


@pytest.mark.parametrize("cabin", ["premium_economy", "business", "first"])
def test_cabins_cost_more_than_economy(supplier, frozen, cabin):
    cheapest = {}
    for offer in supplier.search(round_trip("GRU", "LIS")):
        cheapest.setdefault(offer.owner, offer.total_amount)
    premium = supplier.search(round_trip("GRU", "LIS", cabin=cabin))
    assert premium
    for offer in premium:
        assert all(s.cabin_class == cabin for sl in offer.slices for s in sl.segments)
        if offer.owner in cheapest:
            assert offer.total_amount > cheapest[offer.owner]


def _by_flights(offers):
    return {
        (
            o.owner,
            o.slices[0].fare_brand_name,
            tuple(s.marketing_flight_number for sl in o.slices for s in sl.segments),
        ): o
        for o in offers
    }


@pytest.mark.parametrize(("kind", "factor"), [("infant_without_seat", "0.1"), ("child", "0.75")])
def test_other_passengers_add_their_share_to_the_same_flights(supplier, frozen, kind, factor):
    alone = _by_flights(supplier.search(round_trip("GRU", "LIS")))
    with_other = _by_flights(supplier.search(round_trip("GRU", "LIS", passengers=("adult", kind))))
    assert alone.keys() == with_other.keys()
    for key, offer in alone.items():
        other = with_other[key]
        share = other.base_amount - offer.base_amount
        assert abs(share - offer.base_amount * Decimal(factor)) <= Decimal("0.01")
        assert other.total_amount > offer.total_amount
        assert other.supplier_offer_id != offer.supplier_offer_id
        assert other.supplier_passenger_ids == ("sbx_pas_1", "sbx_pas_2")


def test_fare_brands_include_more_as_they_cost_more(supplier, frozen):
    offers = supplier.search(one_way("GRU", "GIG"))
    gol = [o for o in offers if o.owner == "G3"]
    by_brand = {}
    for offer in gol:
        by_brand.setdefault(offer.slices[0].fare_brand_name, offer)
    light, flex = by_brand["Light"], by_brand["Flex"]
    light_bags = {b.type: b.quantity for b in light.slices[0].segments[0].baggages}
    flex_bags = {b.type: b.quantity for b in flex.slices[0].segments[0].baggages}
    assert light_bags == {"carry_on": 1, "checked": 0}
    assert flex_bags == {"carry_on": 1, "checked": 2}
    assert not light.refund_before_departure.allowed
    assert not light.change_before_departure.allowed
    assert flex.refund_before_departure.allowed
    assert flex.refund_before_departure.penalty_currency == "BRL"
    assert flex.change_before_departure.allowed
    assert flex.change_before_departure.penalty_amount == Decimal("0.00")


def test_instant_payment_offers(supplier, frozen):
    offers = supplier.search(round_trip("GRU", "GIG"))
    instant = [o for o in offers if o.requires_instant_payment]
    assert 0 < len(instant) < len(offers)
    # The low-cost brands are never held.
    for offer in offers:
        airline = AIRLINES[offer.owner]
        if offer.slices[0].fare_brand_name == airline.instant_payment_brand:
            assert offer.requires_instant_payment
    # Others too, about one in six.
    others = [
        o for o in instant if o.slices[0].fare_brand_name != AIRLINES[o.owner].instant_payment_brand
    ]
    assert others


def test_flights_leaving_within_a_day_must_be_paid_at_once(supplier, frozen):
    tomorrow = (NOW + timedelta(days=1)).date()
    offers = supplier.search(one_way("GRU", "GIG", day=tomorrow))
    assert offers
    for offer in offers:
        departs = utc(offer.slices[0].segments[0].departing_at, offer.slices[0].origin)
        if departs - NOW < timedelta(hours=26):
            assert offer.requires_instant_payment
    check_offers(one_way("GRU", "GIG", day=tomorrow), offers)


def test_multi_city_offers_cover_every_slice_with_one_owner(supplier, frozen):
    request = SEARCHES["multi-city"]
    offers = supplier.search(request)
    assert offers
    for offer in offers:
        assert [(s.origin, s.destination) for s in offer.slices] == [
            ("GRU", "LIS"),
            ("LIS", "FRA"),
            ("FRA", "GRU"),
        ]
        assert {seg.marketing_carrier for s in offer.slices for seg in s.segments} == {offer.owner}


# --- Scenarios -----------------------------------------------------------------------------------


@pytest.mark.parametrize("route", [sandbox.NO_OFFERS_ROUTE, sandbox.NO_OFFERS_ROUTE[::-1]])
def test_scenario_no_offers(supplier, frozen, route):
    assert supplier.search(one_way(*route)) == []
    assert supplier.search(multi_city(("GRU", "LIS", OUT), (*route, BACK))) == []


@pytest.mark.parametrize(
    "route", [sandbox.SUPPLIER_ERROR_ROUTE, sandbox.SUPPLIER_ERROR_ROUTE[::-1]]
)
def test_scenario_supplier_error(supplier, frozen, route):
    with pytest.raises(SupplierError) as raised:
        supplier.search(round_trip(*route))
    assert raised.value.code == "supplier_unavailable"
    assert raised.value.status_code == 502


def test_scenario_routes_are_real_airports():
    for code in (*sandbox.NO_OFFERS_ROUTE, *sandbox.SUPPLIER_ERROR_ROUTE):
        assert airports.resolve(code) == (code,)


# --- Orders --------------------------------------------------------------------------------------


def passenger(n: int, family_name: str = "Silva", kind: str = "adult") -> OrderPassenger:
    return OrderPassenger(
        supplier_passenger_id=f"sbx_pas_{n}",
        type=kind,
        title="mr",
        given_name="João",
        family_name=family_name,
        gender="m",
        born_on=date(1985, 5, 17),
        email="joao@example.com",
        phone_number="+5511999990000",
    )


@pytest.fixture
def offers(supplier, frozen, db):  # orders are written in the sandbox airline's book
    return supplier.search(round_trip("GRU", "LIS", passengers=("adult", "adult")))


def holdable(offers, refundable: bool) -> SupplierOffer:
    return next(
        o
        for o in offers
        if not o.requires_instant_payment and o.refund_before_departure.allowed is refundable
    )


def test_hold_then_pay_issues_tickets(supplier, offers):
    offer = holdable(offers, refundable=True)
    people = [passenger(1), passenger(2, "Souza")]
    held = supplier.create_order(
        offer=offer,
        passengers=people,
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    assert re.fullmatch(r"[A-Z2-9]{6}", held.booking_reference)
    assert held.documents == ()
    assert held.payment_required_by == offer.payment_required_by.replace(microsecond=0)
    assert held.price_guarantee_expires_at == offer.price_guarantee_expires_at.replace(
        microsecond=0
    )
    assert len(held.supplier_order_id) <= 100
    assert supplier.get_order(held.supplier_order_id) == held

    paid = supplier.pay_order(
        order_id=held.supplier_order_id, amount=offer.total_amount, currency=offer.total_currency
    )
    assert paid.booking_reference == held.booking_reference
    assert paid.supplier_order_id != held.supplier_order_id
    assert [d.supplier_passenger_id for d in paid.documents] == ["sbx_pas_1", "sbx_pas_2"]
    prefix = AIRLINES[offer.owner].ticket_prefix
    for document in paid.documents:
        assert re.fullmatch(r"\d{13}", document.unique_identifier)
        assert document.unique_identifier.startswith(prefix)
        assert document.type == "electronic_ticket"
    assert len({d.unique_identifier for d in paid.documents}) == 2
    assert paid.payment_required_by is None
    assert supplier.get_order(paid.supplier_order_id) == paid
    # Paying again is harmless: the same tickets.
    assert (
        supplier.pay_order(
            order_id=paid.supplier_order_id,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )
        == paid
    )


def test_instant_order_is_ticketed_at_once(supplier, offers):
    offer = next(o for o in offers if o.requires_instant_payment)
    order = supplier.create_order(
        offer=offer,
        passengers=[passenger(1), passenger(2)],
        instant=True,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    assert len(order.documents) == 2
    assert all(
        d.unique_identifier[:3] == AIRLINES[offer.owner].ticket_prefix for d in order.documents
    )
    assert order.payment_required_by is None


def test_order_ids_stay_short_for_a_full_party(supplier, frozen, db):
    party = ("adult",) * 9 + ("infant_without_seat",) * 9
    offers = supplier.search(round_trip("GRU", "LIS", passengers=party))
    offer = holdable(offers, refundable=True)
    people = [passenger(n) for n in range(1, 19)]
    held = supplier.create_order(
        offer=offer,
        passengers=people,
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    assert len(held.supplier_order_id) <= 100
    paid = supplier.pay_order(
        order_id=held.supplier_order_id,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    assert [d.supplier_passenger_id for d in paid.documents] == [
        p.supplier_passenger_id for p in people
    ]
    quote = supplier.quote_cancellation(paid.supplier_order_id)
    penalty = offer.refund_before_departure.penalty_amount
    assert quote.refund_amount == offer.total_amount - penalty


def test_booking_references_are_random_per_booking(supplier, offers):
    offer = holdable(offers, refundable=False)
    people = [passenger(1), passenger(2)]

    def book():
        return supplier.create_order(
            offer=offer,
            passengers=people,
            instant=False,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )

    references = {book().booking_reference for _ in range(5)}
    assert len(references) == 5  # never derived from the itinerary or the passengers
    for reference in references:
        assert len(reference) == 6 and set(reference) <= set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")


def test_instant_only_offers_cannot_be_held(supplier, offers):
    offer = next(o for o in offers if o.requires_instant_payment)
    with pytest.raises(SupplierError) as raised:
        supplier.create_order(
            offer=offer,
            passengers=[passenger(1), passenger(2)],
            instant=False,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )
    assert raised.value.code == "instant_payment_required"


@pytest.mark.parametrize(("delta", "currency"), [("0.01", None), ("0", "USD")])
def test_payment_must_match_the_offer(supplier, offers, delta, currency):
    offer = holdable(offers, refundable=True)
    amount = offer.total_amount + Decimal(delta)
    currency = currency or offer.total_currency
    with pytest.raises(SupplierError) as raised:
        supplier.create_order(
            offer=offer,
            passengers=[passenger(1), passenger(2)],
            instant=True,
            amount=amount,
            currency=currency,
        )
    assert raised.value.code == "payment_amount_mismatch"
    held = supplier.create_order(
        offer=offer,
        passengers=[passenger(1), passenger(2)],
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    with pytest.raises(SupplierError):
        supplier.pay_order(order_id=held.supplier_order_id, amount=amount, currency=currency)


def test_unknown_passengers_are_refused(supplier, offers):
    offer = holdable(offers, refundable=True)
    for people in ([passenger(1), passenger(3)], [passenger(1), passenger(1)], []):
        with pytest.raises(SupplierError) as raised:
            supplier.create_order(
                offer=offer,
                passengers=people,
                instant=False,
                amount=offer.total_amount,
                currency=offer.total_currency,
            )
        assert raised.value.code == "invalid_passenger"


def test_scenario_issuance_failure(supplier, offers):
    offer = holdable(offers, refundable=True)
    people = [passenger(1), passenger(2, sandbox.ISSUANCE_FAILURE_FAMILY_NAME.upper())]
    with pytest.raises(SupplierError) as raised:
        supplier.create_order(
            offer=offer,
            passengers=people,
            instant=True,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )
    assert raised.value.code == "issuance_failed"
    held = supplier.create_order(
        offer=offer,
        passengers=people,
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    with pytest.raises(SupplierError) as raised:
        supplier.pay_order(
            order_id=held.supplier_order_id,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )
    assert raised.value.code == "issuance_failed"


def test_an_expired_hold_cannot_be_paid(supplier, offers, frozen):
    offer = holdable(offers, refundable=True)
    held = supplier.create_order(
        offer=offer,
        passengers=[passenger(1), passenger(2)],
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    frozen.move_to(offer.payment_required_by + timedelta(seconds=1))
    with pytest.raises(SupplierError) as raised:
        supplier.pay_order(
            order_id=held.supplier_order_id,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )
    assert raised.value.code == "order_expired"


@pytest.mark.parametrize("order_id", ["", "ord_123", "sbx_ord_h-LA-ABC123-1-2s-BRL-n-0-0-0-beef"])
def test_unknown_orders(supplier, order_id):
    with pytest.raises(SupplierError) as raised:
        supplier.get_order(order_id)
    assert raised.value.code == "order_not_found"


def test_a_tampered_order_id_is_refused(supplier, offers):
    offer = holdable(offers, refundable=True)
    held = supplier.create_order(
        offer=offer,
        passengers=[passenger(1), passenger(2)],
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    tampered = held.supplier_order_id.replace("-h-", "-t-").replace("sbx_ord_h-", "sbx_ord_t-")
    with pytest.raises(SupplierError):
        supplier.get_order(tampered)


def test_refundable_cancellation_refunds_total_minus_penalty(supplier, offers, frozen):
    offer = holdable(offers, refundable=True)
    held = supplier.create_order(
        offer=offer,
        passengers=[passenger(1), passenger(2)],
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    unpaid = supplier.quote_cancellation(held.supplier_order_id)
    assert (unpaid.refund_amount, unpaid.refund_to) == (Decimal("0.00"), "awaiting_payment")
    order = supplier.pay_order(
        order_id=held.supplier_order_id, amount=offer.total_amount, currency=offer.total_currency
    )
    quote = supplier.quote_cancellation(order.supplier_order_id)
    penalty = offer.refund_before_departure.penalty_amount
    assert quote.refund_amount == offer.total_amount - penalty
    assert (quote.refund_currency, quote.refund_to) == (offer.total_currency, "balance")
    assert quote.expires_at > NOW
    confirmed = supplier.confirm_cancellation(quote.supplier_quote_id)
    assert confirmed.confirmed_at == NOW
    assert confirmed.refund_amount == quote.refund_amount
    gone = supplier.get_order(order.supplier_order_id)
    assert gone.cancelled and gone.cancellation == confirmed
    with pytest.raises(SupplierError) as again:
        supplier.quote_cancellation(order.supplier_order_id)
    assert again.value.code == "order_already_cancelled"


def test_non_refundable_cancellation_refunds_nothing(supplier, offers):
    offer = next(o for o in offers if not o.refund_before_departure.allowed)
    order = supplier.create_order(
        offer=offer,
        passengers=[passenger(1), passenger(2)],
        instant=True,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    quote = supplier.quote_cancellation(order.supplier_order_id)
    assert quote.refund_amount == Decimal("0.00")
    assert quote.refund_currency == offer.total_currency


def test_cancellation_quotes_are_checked(supplier, offers, frozen):
    offer = holdable(offers, refundable=True)
    order = supplier.create_order(
        offer=offer,
        passengers=[passenger(1), passenger(2)],
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    quote = supplier.quote_cancellation(order.supplier_order_id)
    for bad in ("", "sbx_ocq_123", quote.supplier_quote_id[:-1] + "x"):
        with pytest.raises(SupplierError) as raised:
            supplier.confirm_cancellation(bad)
        assert raised.value.code == "quote_not_found"
    frozen.move_to(quote.expires_at + timedelta(seconds=1))
    with pytest.raises(SupplierError) as raised:
        supplier.confirm_cancellation(quote.supplier_quote_id)
    assert raised.value.code == "quote_expired"


def test_create_order_reads_a_stored_offer(supplier, offers):
    """The stored offer (a model row) has the columns and the rendered conditions only."""
    offer = holdable(offers, refundable=True)
    stored = SimpleNamespace(
        supplier_offer_id=offer.supplier_offer_id,
        owner=offer.owner,
        total_amount=offer.total_amount,
        total_currency=offer.total_currency,
        requires_instant_payment=False,
        payment_required_by=offer.payment_required_by,
        price_guarantee_expires_at=offer.price_guarantee_expires_at,
        data={
            "conditions": {
                "refund_before_departure": {
                    "allowed": True,
                    "penalty_amount": f"{offer.refund_before_departure.penalty_amount:.2f}",
                    "penalty_currency": offer.total_currency,
                }
            }
        },
    )
    held = supplier.create_order(
        offer=stored,
        passengers=[passenger(1), passenger(2)],
        instant=False,
        amount=offer.total_amount,
        currency=offer.total_currency,
    )
    order = supplier.pay_order(
        order_id=held.supplier_order_id, amount=offer.total_amount, currency=offer.total_currency
    )
    quote = supplier.quote_cancellation(order.supplier_order_id)
    assert quote.refund_amount == offer.total_amount - offer.refund_before_departure.penalty_amount


def test_orders_need_a_sandbox_offer(supplier):
    stranger = SimpleNamespace(
        supplier_offer_id="off_duffel",
        owner="LA",
        total_amount=Decimal("10.00"),
        total_currency="BRL",
    )
    with pytest.raises(SupplierError) as raised:
        supplier.create_order(
            offer=stranger,
            passengers=[passenger(1)],
            instant=True,
            amount=Decimal("10.00"),
            currency="BRL",
        )
    assert raised.value.code == "offer_not_found"


# --- Uncertain answers (scenarios) and the airline's order book ----------------------------------


def _order(supplier, offer, people, *, instant, booking_id="ord_test"):
    return supplier.create_order(
        offer=offer,
        passengers=people,
        instant=instant,
        amount=offer.total_amount,
        currency=offer.total_currency,
        booking_id=booking_id,
    )


def test_find_order_finds_an_order_by_the_booking_id_it_carries(supplier, offers):
    offer = holdable(offers, refundable=True)
    made = _order(supplier, offer, [passenger(1), passenger(2)], instant=False, booking_id="ord_a")
    found = supplier.find_order(
        booking_id="ord_a", created_after=NOW - timedelta(minutes=1), passengers=[]
    )
    assert found == made
    assert found.awaiting_payment and not found.documents
    assert (
        supplier.find_order(
            booking_id="ord_other", created_after=NOW - timedelta(minutes=1), passengers=[]
        )
        is None
    )
    # Orders older than what is asked for are not looked at.
    assert (
        supplier.find_order(booking_id="ord_a", created_after=NOW + timedelta(1), passengers=[])
        is None
    )


def test_answer_lost_on_an_instant_order_the_order_exists(supplier, offers):
    offer = holdable(offers, refundable=True)
    people = [passenger(1, "Answerlost"), passenger(2)]
    with pytest.raises(SupplierOutcomeUnknown):
        _order(supplier, offer, people, instant=True, booking_id="ord_lost")
    found = supplier.find_order(
        booking_id="ord_lost", created_after=NOW - timedelta(minutes=1), passengers=people
    )
    assert found is not None and not found.awaiting_payment
    assert [d.supplier_passenger_id for d in found.documents] == ["sbx_pas_1", "sbx_pas_2"]


def test_supplier_down_makes_nothing(supplier, offers):
    offer = holdable(offers, refundable=True)
    people = [passenger(1, "supplierdown"), passenger(2)]
    with pytest.raises(SupplierOutcomeUnknown):
        _order(supplier, offer, people, instant=True, booking_id="ord_down")
    assert (
        supplier.find_order(
            booking_id="ord_down", created_after=NOW - timedelta(minutes=1), passengers=people
        )
        is None
    )


def test_order_pending_is_ticketed_a_little_later(supplier, offers, frozen):
    offer = holdable(offers, refundable=True)
    people = [passenger(1, "Orderpending"), passenger(2)]
    with pytest.raises(SupplierOutcomeUnknown):
        _order(supplier, offer, people, instant=True, booking_id="ord_pending")
    since = NOW - timedelta(minutes=1)
    issuing = supplier.find_order(booking_id="ord_pending", created_after=since, passengers=[])
    assert issuing is not None and not issuing.documents and not issuing.awaiting_payment
    frozen.shift(sandbox.ORDER_PENDING_SECONDS)
    ticketed = supplier.find_order(booking_id="ord_pending", created_after=since, passengers=[])
    assert len(ticketed.documents) == 2
    assert supplier.get_order(issuing.supplier_order_id) == ticketed


@pytest.mark.parametrize(("family_name", "paid"), [("Answerlost", True), ("Supplierdown", False)])
def test_paying_a_hold_with_an_uncertain_answer(supplier, offers, family_name, paid):
    offer = holdable(offers, refundable=True)
    held = _order(supplier, offer, [passenger(1, family_name), passenger(2)], instant=False)
    with pytest.raises(SupplierOutcomeUnknown):
        supplier.pay_order(
            order_id=held.supplier_order_id,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )
    now = supplier.get_order(held.supplier_order_id)  # read by the id we already had
    assert now.awaiting_payment is not paid
    assert bool(now.documents) is paid
    if paid:  # paying again takes nothing more: the same tickets
        again = supplier.pay_order(
            order_id=held.supplier_order_id,
            amount=offer.total_amount,
            currency=offer.total_currency,
        )
        assert again.documents == now.documents


def test_a_hold_whose_answer_is_lost_exists(supplier, offers):
    offer = holdable(offers, refundable=True)
    people = [passenger(1, "Holdlost"), passenger(2)]
    with pytest.raises(SupplierOutcomeUnknown):
        _order(supplier, offer, people, instant=False, booking_id="ord_hold")
    found = supplier.find_order(
        booking_id="ord_hold", created_after=NOW - timedelta(minutes=1), passengers=people
    )
    assert found.awaiting_payment and found.payment_required_by == offer.payment_required_by


def test_refund_penalties_always_leave_something_to_refund(supplier, frozen):
    requests = [
        round_trip("GRU", "LIS"),
        round_trip("GRU", "GIG", cabin="business"),
        one_way("GRU", "MIA", passengers=("adult", "child", "infant_without_seat")),
        one_way("CGH", "SDU"),
        round_trip("GRU", "EZE", cabin="first"),
    ]
    refundable = [
        offer
        for request in requests
        for offer in supplier.search(request)
        if offer.refund_before_departure.allowed
    ]
    assert refundable
    for offer in refundable:
        penalty = offer.refund_before_departure.penalty_amount
        assert Decimal(0) <= penalty < offer.total_amount
