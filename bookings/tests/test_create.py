from datetime import datetime, timedelta

import pytest
import time_machine

from bookings.models import Booking
from bookings.tests.helpers import book, error, holdable
from tests.kit.passengers import passenger

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]


def test_an_expired_offer_answers_expired_until_purged_an_hour_later(live_client):
    from flights.tasks import purge_expired_offers

    offer = holdable(live_client)
    expired = datetime.fromisoformat(offer["expires_at"]) + timedelta(seconds=1)
    with time_machine.travel(expired + timedelta(minutes=55), tick=False):
        purge_expired_offers()
        assert error(book(live_client, offer)) == (400, "Offer expired")
    with time_machine.travel(expired + timedelta(minutes=65), tick=False):
        purge_expired_offers()
        assert error(book(live_client, offer)) == (404, "Offer not found")
    assert not Booking.objects.exists()


def test_a_booking_keeps_exactly_what_the_search_showed(live_client):
    offer = holdable(live_client, origin="GRU", destination="LIS")
    booking = book(
        live_client,
        offer,
        people=[
            passenger(
                offer["passengers"][0]["id"],
                identity_documents=[
                    {
                        "type": "passport",
                        "unique_identifier": "FX123456",
                        "issuing_country_code": "BR",
                        "expires_on": "2031-01-01",
                    }
                ],
            )
        ],
    ).json()
    assert booking["owner"] == offer["owner"]
    assert booking["conditions"] == offer["conditions"]
    for booked, shown in zip(booking["slices"], offer["slices"], strict=True):
        assert {k: v for k, v in booked.items() if k != "segments"} == {
            k: v for k, v in shown.items() if k != "segments"
        }
        for booked_segment, shown_segment in zip(
            booked["segments"], shown["segments"], strict=True
        ):
            assert {k: v for k, v in booked_segment.items() if k != "passengers"} == {
                k: v for k, v in shown_segment.items() if k != "passengers"
            }
            assert booked_segment["passengers"] == [
                {
                    "passenger_id": p["passenger_id"],
                    "cabin_class": p["cabin_class"],
                    "seat": None,
                    "baggages": p["baggages"],
                }
                for p in shown_segment["passengers"]
            ]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"given_name": ""}, "given_name"),
        ({"title": "sir"}, "title"),
        ({"born_on": "01/05/1990"}, "born_on"),
        ({"born_on": "2020-01-01"}, "born_on"),  # a 6-year-old is not an adult
        ({"email": "nope"}, "email"),
        ({"id": "pas_other"}, "id"),
    ],
)
def test_invalid_passenger_data_names_passenger_and_field(live_client, change, field):
    offer = holdable(live_client)
    changed = {**passenger(offer["passengers"][0]["id"]), **change}
    response = book(live_client, offer, people=[changed])
    assert error(response) == (400, "Invalid passenger data")
    assert list(response.json()["error"]["details"]) == [f"passengers[0].{field}"]


def test_infants_travel_with_exactly_one_adult(live_client):
    offer = holdable(
        live_client,
        passengers=[{"type": "adult", "count": 1}, {"type": "infant_without_seat", "count": 1}],
    )
    adult_id, infant_id = (p["id"] for p in offer["passengers"])
    infant = passenger(infant_id, given_name="Bia", born_on="2026-06-01")
    lone = book(live_client, offer, people=[passenger(adult_id), infant])
    assert error(lone) == (400, "Invalid passenger data")
    carried = book(
        live_client, offer, people=[passenger(adult_id, infant_passenger_id=infant_id), infant]
    )
    assert carried.status_code == 201
    assert [p["type"] for p in carried.json()["passengers"]] == ["adult", "infant_without_seat"]


def test_booking_links_a_client_by_lead_passenger_email(live_client, team):
    first = book(live_client, holdable(live_client)).json()
    second = book(live_client, holdable(live_client, destination="CNF")).json()
    clients = {Booking.objects.get(pk=b["id"]).client_id for b in (first, second)}
    assert len(clients) == 1
