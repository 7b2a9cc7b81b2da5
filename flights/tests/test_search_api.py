from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine

from flights.models import OfferRequest
from flights.selectors import bookable_offer
from flights.tasks import purge_expired_offers
from tests.kit.clock import NOW

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

SEARCH = "/api/v1/flights/search"
DAY = "2027-01-15"


def one_way(origin="GRU", destination="LIS", day=DAY, passengers=None, **extra):
    return {
        "type": "one_way",
        "slices": [{"origin": origin, "destination": destination, "departureDate": day}],
        "passengers": passengers or [{"type": "adult", "count": 1}],
        **extra,
    }


def round_trip_body(origin="GRU", destination="LIS"):
    return {
        "type": "round_trip",
        "slices": [
            {"origin": origin, "destination": destination, "departureDate": DAY},
            {"origin": destination, "destination": origin, "departureDate": "2027-01-29"},
        ],
        "passengers": [{"type": "adult", "count": 1}],
    }


def search(client, body):
    return client.post(SEARCH, body, format="json")


def error(response):
    return (
        response.status_code,
        response.json()["error"]["message"],
        response.json()["error"]["details"],
    )


# --- Validation: one test per rule and message -------------------------------------------------


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "type"),
        ({"type": "two_way"}, "type"),
        (one_way(cabinClass="luxury"), "cabinClass"),
        ({"type": "one_way", "passengers": [{"type": "adult", "count": 1}]}, "slices"),
        ({**one_way(), "slices": "GRU-LIS"}, "slices"),
        ({**one_way(), "slices": []}, "slices"),
        ({**one_way(), "type": "round_trip"}, "slices"),
        ({**one_way(), "type": "multi_city"}, "slices"),
        (
            {**one_way(), "slices": [{"origin": "GRU", "departureDate": DAY}]},
            "slices[0].destination",
        ),
        (
            {**one_way(), "slices": [{"origin": 123, "destination": "LIS", "departureDate": DAY}]},
            "slices[0].origin",
        ),
        (
            {
                **one_way(),
                "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": 20270115}],
            },
            "slices[0].departureDate",
        ),
        (one_way(destination="GRU"), "slices[0].destination"),
        (one_way(origin="SAO", destination="GRU"), "slices[0].destination"),
        ({**one_way(), "passengers": []}, "passengers"),
        ({**one_way(), "passengers": [{"type": "senior", "count": 1}]}, "passengers[0].type"),
        ({**one_way(), "passengers": [{"type": "adult", "count": 0}]}, "passengers[0].count"),
        ({**one_way(), "passengers": [{"type": "adult", "count": "2"}]}, "passengers[0].count"),
        ({**one_way(), "passengers": [{"type": "adult", "count": True}]}, "passengers[0].count"),
        ({**one_way(), "passengers": [{"type": "adult"}]}, "passengers[0].count"),
        ({**one_way(), "passengers": [{"type": "child", "count": 1}]}, "passengers"),
        (
            {
                **one_way(),
                "passengers": [{"type": "adult", "count": 5}, {"type": "child", "count": 5}],
            },
            "passengers",
        ),
        (
            {
                **one_way(),
                "passengers": [
                    {"type": "adult", "count": 1},
                    {"type": "infant_without_seat", "count": 2},
                ],
            },
            "passengers",
        ),
    ],
)
def test_invalid_request_parameters_name_the_field(live_client, body, field):
    status, message, details = error(search(live_client, body))
    assert (status, message) == (400, "Invalid request parameters")
    assert list(details) == [field]


@pytest.mark.parametrize("origin", ["XXX", "GR", "GRUU", "123", "", "ZZZ"])
def test_unknown_airport_codes(live_client, origin):
    status, message, details = error(search(live_client, one_way(origin=origin)))
    assert (status, message) == (400, "Invalid airport code")
    assert list(details) == ["slices[0].origin"]


def test_lowercase_codes_are_accepted(live_client):
    assert search(live_client, one_way(origin="gru", destination="lis")).status_code == 200


@pytest.mark.parametrize(
    "day", ["15/01/2027", "2027-1-15", "2027-02-30", "2027-13-01", "tomorrow", "2027-01-15T10:00"]
)
def test_invalid_date_format(live_client, day):
    status, message, details = error(search(live_client, one_way(day=day)))
    assert (status, message) == (400, "Invalid date format")
    assert list(details) == ["slices[0].departureDate"]


@pytest.mark.parametrize("day", ["2026-11-21", "2026-11-22", "2020-01-01"])
def test_departure_not_in_the_future(live_client, day):
    status, message, _ = error(search(live_client, one_way(day=day)))
    assert (status, message) == (400, "Departure date in the past")


def test_tomorrow_is_in_the_future(live_client):
    assert search(live_client, one_way(day="2026-11-23")).status_code == 200


def test_round_trip_must_return_and_not_go_back_in_time(live_client):
    body = {
        "type": "round_trip",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [
            {"origin": "GRU", "destination": "LIS", "departureDate": "2027-01-15"},
            {"origin": "MAD", "destination": "GRU", "departureDate": "2027-01-20"},
        ],
    }
    assert error(search(live_client, body))[:2] == (400, "Invalid request parameters")
    body["slices"][1] = {"origin": "LIS", "destination": "GRU", "departureDate": "2027-01-14"}
    assert list(error(search(live_client, body))[2]) == ["slices[1].departureDate"]


def test_multi_city_dates_must_not_decrease_and_count_2_to_6(live_client):
    legs = [
        ("GRU", "LIS"),
        ("LIS", "MAD"),
        ("MAD", "CDG"),
        ("CDG", "FRA"),
        ("FRA", "AMS"),
        ("AMS", "LHR"),
        ("LHR", "GRU"),
    ]
    body = {
        "type": "multi_city",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [
            {"origin": o, "destination": d, "departureDate": f"2027-01-{10 + i}"}
            for i, (o, d) in enumerate(legs)
        ],
    }
    assert list(error(search(live_client, body))[2]) == ["slices"]  # 7 slices
    body["slices"] = body["slices"][:3]
    body["slices"][2]["departureDate"] = "2027-01-01"
    assert list(error(search(live_client, body))[2]) == ["slices[2].departureDate"]


# --- Results -----------------------------------------------------------------------------------


OFFER_FIELDS = {
    "id",
    "total_amount",
    "total_currency",
    "base_amount",
    "tax_amount",
    "client_amount",
    "client_currency",
    "original_amount",
    "original_currency",
    "exchange_rate_used",
    "fx_reference_rate",
    "fx_margin_percent",
    "base_cost_brl",
    "agency_markup_percent",
    "agency_markup_amount",
    "agency_fee_amount",
    "total_agency_commission",
    "markup_applied",
    "fee_applied",
    "expires_at",
    "owner",
    "slices",
    "passengers",
    "conditions",
    "payment_requirements",
    "passenger_identity_documents_required",
    "allowed_passenger_identity_document_types",
}
SEGMENT_FIELDS = {
    "id",
    "origin",
    "destination",
    "departing_at",
    "arriving_at",
    "operating_carrier",
    "marketing_carrier",
    "operating_carrier_flight_number",
    "marketing_carrier_flight_number",
    "aircraft",
    "duration",
    "distance",
    "passengers",
}


def test_round_trip_result_has_every_field_and_priced_offers(live_client, team):
    team.markup_percent = Decimal("10.00")
    team.fee = Decimal("25.00")
    team.save()
    body = {
        "type": "round_trip",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [
            {"origin": "GRU", "destination": "LIS", "departureDate": "2027-01-15"},
            {"origin": "LIS", "destination": "GRU", "departureDate": "2027-01-25"},
        ],
    }
    response = search(live_client, body)
    assert response.status_code == 200
    assert "success" not in response.json() and "_meta" not in response.json()  # unwrapped
    assert "supplier;dur=" in response["Server-Timing"]
    result = response.json()
    assert result["id"].startswith("orq_") and len(result["offers"]) >= 50
    assert [s["origin"]["iata_code"] for s in result["slices"]] == ["GRU", "LIS"]
    assert result["slices"][0]["departure_date"] == "2027-01-15"
    [passenger] = result["passengers"]
    assert passenger["id"].startswith("pas_") and passenger["type"] == "adult"
    for offer in result["offers"]:
        assert set(offer) == OFFER_FIELDS
        base, markup = Decimal(offer["base_cost_brl"]), Decimal(offer["agency_markup_amount"])
        assert base == (
            Decimal(offer["total_amount"]) * Decimal(str(offer["exchange_rate_used"]))
        ).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
        assert markup == (base * Decimal("0.10")).quantize(
            Decimal("0.01"), rounding="ROUND_HALF_UP"
        )
        assert offer["agency_fee_amount"] == offer["fee_applied"] == "25.00"
        assert Decimal(offer["client_amount"]) == base + markup + Decimal("25.00")
        assert offer["agency_markup_percent"] == 10 and offer["client_currency"] == "BRL"
        assert isinstance(offer["original_amount"], float | int)
        assert offer["total_amount"] == f"{Decimal(str(offer['original_amount'])):.2f}"
        assert [p["id"] for p in offer["passengers"]] == [passenger["id"]]
        assert len(offer["slices"]) == 2
        for slice_ in offer["slices"]:
            assert slice_["id"].startswith("sli_") and slice_["duration"].startswith("PT")
            assert set(slice_["origin"]) >= {
                "iata_code",
                "name",
                "city_name",
                "iata_city_code",
                "time_zone",
            }
            for segment in slice_["segments"]:
                assert set(segment) == SEGMENT_FIELDS and segment["id"].startswith("seg_")
                assert len(segment["departing_at"]) == 19  # local, no offset
                assert segment["passengers"][0]["passenger_id"] == passenger["id"]
        requirements = offer["payment_requirements"]
        if requirements["requires_instant_payment"]:
            assert requirements["payment_required_by"] is None
        else:
            assert requirements["payment_required_by"].endswith("Z")
    currencies = {offer["total_currency"] for offer in result["offers"]}
    assert {"EUR", "BRL"} <= currencies
    rates = {o["total_currency"]: o["exchange_rate_used"] for o in result["offers"]}
    assert rates["BRL"] == 1 and rates["EUR"] == 6.2


def test_offers_are_stored_for_booking_scoped_to_team_and_mode(live_client, team, other_team):
    result = search(live_client, round_trip_body()).json()
    stored = OfferRequest.objects.get(pk=result["id"])
    assert stored.team == team and stored.live_mode is True and stored.supplier == "sandbox"
    assert len(stored.offers) == len(result["offers"])
    for shown in result["offers"]:
        offer = bookable_offer(team=team, live_mode=True, offer_id=shown["id"])
        # What a booking keeps of the offer is exactly what the search showed.
        for part in ("owner", "slices", "conditions", "passengers", "payment_requirements"):
            assert offer.data[part] == shown[part], part
        assert offer.total_amount == Decimal(shown["total_amount"])
        assert offer.total_currency == shown["total_currency"]
        assert offer.base_amount == Decimal(shown["base_amount"])
        assert offer.tax_amount == Decimal(shown["tax_amount"])
        assert offer.exchange_rate == Decimal(str(shown["exchange_rate_used"]))
        assert offer.base_cost_brl == Decimal(shown["base_cost_brl"])
        assert offer.expires_at > NOW
        assert offer.supplier_passenger_ids == ("sbx_pas_1",)
    first = result["offers"][0]["id"]
    assert bookable_offer(team=team, live_mode=False, offer_id=first) is None
    assert bookable_offer(team=other_team, live_mode=True, offer_id=first) is None
    another = first[:-1] + ("1" if first.endswith("0") else "0")  # same search, no such offer
    assert bookable_offer(team=team, live_mode=True, offer_id=another) is None
    assert bookable_offer(team=team, live_mode=True, offer_id="off_x\x00") is None


def test_a_search_stores_a_fraction_of_what_it_returns(live_client):
    """Only what a booking needs, packed: a small fraction of the offers as returned (they
    used to be stored whole)."""
    import orjson

    response = search(live_client, round_trip_body())
    returned = len(orjson.dumps(response.json()["offers"]))
    stored = OfferRequest.objects.get(pk=response.json()["id"])
    stored_bytes = len(orjson.dumps(stored.offers)) + len(orjson.dumps(stored.passengers))
    assert stored_bytes * 4 < returned, (stored_bytes, returned)


def test_city_codes_search_all_their_airports(live_client):
    result = search(live_client, one_way(origin="SAO", destination="RIO", day="2027-01-15")).json()
    assert result["slices"][0]["origin"]["iata_code"] == "SAO"
    assert result["slices"][0]["origin_type"] == "city"
    origins = {o["slices"][0]["segments"][0]["origin"]["iata_code"] for o in result["offers"]}
    destinations = {
        o["slices"][0]["segments"][-1]["destination"]["iata_code"] for o in result["offers"]
    }
    assert len(origins) >= 2 and origins <= {"CGH", "GRU", "VCP"}
    assert destinations <= {"GIG", "SDU"}


def test_multi_city_offers_cover_every_slice(live_client):
    body = {
        "type": "multi_city",
        "passengers": [{"type": "adult", "count": 2}],
        "slices": [
            {"origin": "GRU", "destination": "MIA", "departureDate": "2027-01-10"},
            {"origin": "MIA", "destination": "JFK", "departureDate": "2027-01-14"},
            {"origin": "JFK", "destination": "GRU", "departureDate": "2027-01-20"},
        ],
    }
    result = search(live_client, body).json()
    assert result["offers"]
    for offer in result["offers"]:
        ends = [(s["origin"]["iata_code"], s["destination"]["iata_code"]) for s in offer["slices"]]
        assert ends == [("GRU", "MIA"), ("MIA", "JFK"), ("JFK", "GRU")]
        assert len(offer["passengers"]) == 2


def test_infants_and_children_are_priced_passengers(live_client):
    passengers = [
        {"type": "adult", "count": 2},
        {"type": "child", "count": 1},
        {"type": "infant_without_seat", "count": 1},
    ]
    result = search(live_client, one_way(passengers=passengers)).json()
    assert [p["type"] for p in result["passengers"]] == [
        "adult",
        "adult",
        "child",
        "infant_without_seat",
    ]
    adults_only = search(live_client, one_way(passengers=[{"type": "adult", "count": 2}])).json()

    def itinerary(offer):
        return (
            offer["owner"]["iata_code"],
            offer["slices"][0]["fare_brand_name"],
            tuple(s["marketing_carrier_flight_number"] for s in offer["slices"][0]["segments"]),
        )

    adults_price = {itinerary(o): Decimal(o["total_amount"]) for o in adults_only["offers"]}
    compared = 0
    for offer in result["offers"]:
        if itinerary(offer) in adults_price:
            assert Decimal(offer["total_amount"]) > adults_price[itinerary(offer)]
            compared += 1
    assert compared >= 10


@pytest.mark.parametrize("cabin", ["economy", "premium_economy", "business", "first"])
def test_cabin_class_is_honoured(live_client, cabin):
    result = search(live_client, one_way(cabinClass=cabin)).json()
    cabins = {
        p["cabin_class"]
        for o in result["offers"]
        for s in o["slices"]
        for seg in s["segments"]
        for p in seg["passengers"]
    }
    assert cabins == {cabin}


def test_test_mode_uses_the_sandbox_and_meta(test_client):
    response = search(test_client, one_way())
    assert response.status_code == 200 and response.json()["_meta"]["test_mode"] is True
    assert OfferRequest.objects.get(pk=response.json()["id"]).supplier == "sandbox"


def test_sandbox_scenarios_no_offers_and_supplier_error(live_client):
    from flights.suppliers import sandbox

    origin, destination = sorted(sandbox.NO_OFFERS_ROUTE)
    empty = search(live_client, one_way(origin=origin, destination=destination))
    assert empty.status_code == 200 and empty.json()["offers"] == []
    origin, destination = sorted(sandbox.SUPPLIER_ERROR_ROUTE)
    failed = search(live_client, one_way(origin=origin, destination=destination))
    assert failed.status_code == 502
    assert failed.json()["error"]["code"] == "supplier_unavailable"


def test_purge_deletes_a_search_an_hour_after_its_last_offer_expires(live_client):
    result = search(live_client, one_way()).json()
    last_expiry = max(datetime.fromisoformat(o["expires_at"]) for o in result["offers"])
    assert purge_expired_offers.delay().get() == 0
    with time_machine.travel(last_expiry + timedelta(minutes=59), tick=False):
        assert purge_expired_offers.delay().get() == 0
    with time_machine.travel(last_expiry + timedelta(minutes=61), tick=False):
        assert purge_expired_offers.delay().get() == 1
    assert not OfferRequest.objects.exists()


def test_purge_runs_every_five_minutes(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge-expired-offers"]
    assert entry["task"] == "flights.tasks.purge_expired_offers" and entry["schedule"] == 300.0


def test_search_date_uses_the_origin_time_zone(live_client):
    # 02:00 UTC on 23 Nov is still 22 Nov in São Paulo: 23 Nov is in the future there.
    with time_machine.travel(datetime(2026, 11, 23, 2, 0, tzinfo=UTC), tick=False):
        assert search(live_client, one_way(day="2026-11-23")).status_code == 200
    assert date(2026, 11, 23) > NOW.date()


def test_a_live_team_with_a_duffel_integration_searches_duffel(
    live_client, test_client, team, settings
):
    import json
    from pathlib import Path

    import responses

    from agencies.services import integration_connect

    settings.DUFFEL_BASE_URL = "https://api.duffel.test"
    recorded = json.loads(
        (Path(__file__).parent / "duffel_responses" / "offer_request.json").read_text()
    )
    integration_connect(
        team=team, live_mode=True, provider="duffel", access_token="duffel_live_token"
    )
    body = {
        "type": "round_trip",
        "passengers": [{"type": "adult", "count": 1}, {"type": "infant_without_seat", "count": 1}],
        "slices": [
            {"origin": "SAO", "destination": "LIS", "departureDate": "2027-01-15"},
            {"origin": "LIS", "destination": "SAO", "departureDate": "2027-01-25"},
        ],
    }
    with responses.RequestsMock() as duffel:
        duffel.post("https://api.duffel.test/air/offer_requests", json=recorded, status=201)
        result = search(live_client, body)
        assert result.status_code == 200, result.content
        assert len(duffel.calls) == 1
        assert duffel.calls[0].request.headers["Authorization"] == "Bearer duffel_live_token"
        # Test mode never calls Duffel, integration or not.
        assert search(test_client, body).status_code == 200
        assert len(duffel.calls) == 1
    offers = result.json()["offers"]
    assert offers and OfferRequest.objects.get(pk=result.json()["id"]).supplier == "duffel"
    assert {o["total_currency"] for o in offers} == {"EUR"}
