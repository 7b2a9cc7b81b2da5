"""Passengers' identity documents are encrypted at rest, and their personal data is erased
PASSENGER_DATA_RETENTION_DAYS after the travel ended, leaving the money records untouched."""

import json
from datetime import UTC, date, datetime, time, timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection

from bookings.models import Booking, BookingPassenger
from bookings.retention import ERASED, travel_end_date
from bookings.tasks import erase_expired_passenger_data
from bookings.tests.helpers import book, holdable
from core.json_fields import is_encrypted
from tests.kit.clock import NOW
from tests.kit.factories import fund
from tests.kit.passengers import passenger
from wallet.models import Transaction, Wallet
from webhooks.models import Event

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

PASSPORT = {
    "type": "passport",
    "unique_identifier": "FX123456",
    "issuing_country_code": "BR",
    "expires_on": "2030-01-01",
}


def raw_passenger_row(passenger_pk: int) -> dict:
    """The row as the database holds it (what a dump or a backup shows)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM bookings_bookingpassenger WHERE id = %s", [passenger_pk])
        names = [column[0] for column in cursor.description]
        return dict(zip(names, cursor.fetchone(), strict=True))


def book_international(client, **extra):
    offer = holdable(client, destination="LIS")
    people = [passenger(offer["passengers"][0]["id"], identity_documents=[PASSPORT])]
    return book(client, offer, people=people, **extra).json()


def test_identity_documents_are_stored_encrypted_and_read_back(live_client, team):
    booking = book_international(live_client)
    passenger = BookingPassenger.objects.get(booking_id=booking["id"])

    stored = raw_passenger_row(passenger.pk)["identity_documents"]
    assert is_encrypted(stored) and "FX123456" not in stored
    assert passenger.identity_documents == [PASSPORT]
    # Two encryptions of the same documents differ (Fernet's random IV): nothing to compare.
    passenger.save()
    assert raw_passenger_row(passenger.pk)["identity_documents"] != stored


def test_a_stored_value_that_does_not_decrypt_is_an_error_not_an_empty_list(live_client, team):
    from cryptography.fernet import InvalidToken

    booking = book_international(live_client)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE bookings_bookingpassenger SET identity_documents = %s",
            ["gAAAAABnot-a-token-of-ours"],
        )
    with pytest.raises(InvalidToken):
        BookingPassenger.objects.get(booking_id=booking["id"])


# --- Retention -------------------------------------------------------------------------------


def ledger_rows() -> list[tuple]:
    return list(
        Transaction.objects.order_by("pk").values_list(
            *("pk", "team_id", "live_mode", "type", "amount", "balance_after"),
            *("reference_type", "reference_id", "description"),
        )
    )


def test_travel_ends_with_the_last_arrival(live_client, team):
    booking = Booking.objects.get(pk=book_international(live_client)["id"])
    last = booking.slices[-1]["segments"][-1]["arriving_at"]
    assert travel_end_date(booking) == date.fromisoformat(str(last)[:10])
    booking.slices = []
    assert travel_end_date(booking) == booking.departing_at.date()


def test_personal_data_is_erased_after_the_retention_keeping_the_money_records(
    live_client, team, settings
):
    settings.PASSENGER_DATA_RETENTION_DAYS = 180
    fund(team, "50000.00")
    booking = book_international(live_client, type="instant")
    assert booking["status"] == "ticketed"
    other_offer = holdable(live_client)
    other = book(live_client, other_offer).json()  # a domestic hold, same travel dates
    stored = Booking.objects.get(pk=booking["id"])
    ended = travel_end_date(stored)
    ledger_before, balance = ledger_rows(), Wallet.objects.get(team=team).balance
    before = live_client.get(f"/api/v1/bookings/{booking['id']}").json()

    noon = datetime.combine(ended, time(12), tzinfo=UTC)  # the same day in São Paulo
    with time_machine.travel(noon + timedelta(days=180), tick=False):
        assert erase_expired_passenger_data.delay().get() == 0  # the 180th day: kept
    with time_machine.travel(noon + timedelta(days=181), tick=False):
        assert erase_expired_passenger_data.delay().get() == 2
        assert erase_expired_passenger_data.delay().get() == 0  # once

    passenger = BookingPassenger.objects.get(booking_id=booking["id"])
    assert (passenger.given_name, passenger.family_name, passenger.email) == (ERASED,) * 3
    assert (passenger.phone_number, passenger.born_on, passenger.gender) == (ERASED, None, "")
    assert passenger.identity_documents == [] and passenger.loyalty_programme_accounts == []
    assert "FX123456" not in json.dumps(raw_passenger_row(passenger.pk), default=str)
    assert passenger.passenger_id and passenger.type == "adult"  # the structure stays

    after = live_client.get(f"/api/v1/bookings/{booking['id']}").json()
    assert after["passengers"] == [
        {
            **before["passengers"][0],
            "given_name": ERASED,
            "family_name": ERASED,
            "gender": "",
            "born_on": None,
            "email": ERASED,
            "phone_number": ERASED,
        }
    ]
    money = ["total_amount", "base_amount", "tax_amount", "booking_reference", "documents"]
    assert {k: after[k] for k in money} == {k: before[k] for k in money}
    assert after["status"] == "ticketed" and after["slices"] == before["slices"]
    assert Booking.objects.get(pk=booking["id"]).personal_data_erased_at is not None
    assert Booking.objects.get(pk=other["id"]).personal_data_erased_at is not None

    # The client made from the lead passenger is erased with the last of its bookings.
    client = Booking.objects.get(pk=booking["id"]).client
    assert (client.full_name, client.email) == (ERASED, f"{client.id}@erased.invalid")
    listed = live_client.get("/api/v1/bookings").json()["data"]
    assert {b["client"]["full_name"] for b in listed} == {ERASED}

    # The ledger is untouched and still consistent.
    assert ledger_rows() == ledger_before
    assert Wallet.objects.get(team=team).balance == balance
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()

    # The stored events keep their amounts and statuses, not the passengers.
    events = Event.objects.filter(data_object__id=booking["id"])
    assert events.count() >= 3
    text = json.dumps([e.data_object for e in events])
    assert "ana@example.com" not in text and "Souza" not in text and "1990-05-01" not in text
    assert all(e.data_object["total_amount"] == booking["total_amount"] for e in events)
    # The erasure is a data change: one `booking.updated`, naming the passengers but never
    # repeating what was erased.
    [erased] = events.filter(type="booking.updated", previous_attributes__passengers=ERASED)
    assert erased.data_object["passengers"] == after["passengers"]
    assert erased.data_object["status"] == "ticketed"


def test_a_client_with_a_booking_still_in_retention_is_kept(live_client, team, settings):
    settings.PASSENGER_DATA_RETENTION_DAYS = 30
    old = Booking.objects.get(pk=book(live_client, holdable(live_client)).json()["id"])
    later_offer = holdable(live_client)
    later = Booking.objects.get(pk=book(live_client, later_offer).json()["id"])
    assert old.client_id == later.client_id  # the same lead passenger's e-mail
    Booking.objects.filter(pk=later.pk).update(
        departing_at=later.departing_at + timedelta(days=90),
        slices=[],  # its travel ends with its (later) departure
    )
    with time_machine.travel(travel_end_date(old) + timedelta(days=45), tick=False):
        assert erase_expired_passenger_data.delay().get() == 1
    assert Booking.objects.get(pk=old.pk).personal_data_erased_at is not None
    client = Booking.objects.get(pk=old.pk).client
    assert (client.full_name, client.email) == ("Ana Souza", "ana@example.com")


def test_a_booking_still_travelling_or_recently_back_is_kept(live_client, team, settings):
    settings.PASSENGER_DATA_RETENTION_DAYS = 30
    booking = book(live_client, holdable(live_client)).json()
    departure = Booking.objects.get(pk=booking["id"]).departing_at
    with time_machine.travel(departure + timedelta(days=10), tick=False):
        assert erase_expired_passenger_data.delay().get() == 0
    passenger = BookingPassenger.objects.get(booking_id=booking["id"])
    assert passenger.given_name == "Ana" and passenger.email == "ana@example.com"


def test_a_booking_whose_supplier_outcome_is_unknown_is_kept(live_client, team, settings):
    settings.PASSENGER_DATA_RETENTION_DAYS = 30
    booking = Booking.objects.get(pk=book(live_client, holdable(live_client)).json()["id"])
    Booking.objects.filter(pk=booking.pk).update(outcome_unknown_since=NOW)
    with time_machine.travel(travel_end_date(booking) + timedelta(days=60), tick=False):
        assert erase_expired_passenger_data.delay().get() == 0
        Booking.objects.filter(pk=booking.pk).update(outcome_unknown_since=None)  # settled
        assert erase_expired_passenger_data.delay().get() == 1


def test_a_round_trip_is_kept_until_the_return_flight_plus_the_retention(
    live_client, team, settings
):
    settings.PASSENGER_DATA_RETENTION_DAYS = 30
    body = {
        "type": "round_trip",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [
            {"origin": "GRU", "destination": "BSB", "departureDate": "2027-01-15"},
            {"origin": "BSB", "destination": "GRU", "departureDate": "2027-04-15"},
        ],
    }
    found = live_client.post("/api/v1/flights/search", body, format="json").json()["offers"]
    offer = next(o for o in found if not o["payment_requirements"]["requires_instant_payment"])
    booking = Booking.objects.get(pk=book(live_client, offer).json()["id"])
    assert travel_end_date(booking) >= date(2027, 4, 15)

    with time_machine.travel(booking.departing_at + timedelta(days=40), tick=False):
        assert erase_expired_passenger_data.delay().get() == 0  # 40 days after leaving
    with time_machine.travel(date(2027, 4, 17) + timedelta(days=31), tick=False):
        assert erase_expired_passenger_data.delay().get() == 1


def test_the_job_is_in_the_beat_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["erase-expired-passenger-data"]
    assert entry["task"] == "bookings.tasks.erase_expired_passenger_data"
    assert settings.PASSENGER_DATA_RETENTION_DAYS == 180  # the documented default


def test_a_client_the_agency_created_is_kept_and_one_made_from_a_booking_is_erased_whole(
    live_client, team, settings
):
    settings.PASSENGER_DATA_RETENTION_DAYS = 30
    record = live_client.post(
        "/api/v1/clients",
        {
            "full_name": "Viagens Ltda",
            "email": "compras@viagens.example",
            "tax_id": "11222333000181",
        },
        format="json",
    ).json()["data"]
    named = Booking.objects.get(
        pk=book(live_client, holdable(live_client), client_id=record["id"]).json()["id"]
    )
    made = Booking.objects.get(pk=book(live_client, holdable(live_client)).json()["id"])
    # The agency added a CPF, an address and metadata to the client made from the passenger.
    made.client.tax_id, made.client.city, made.client.metadata = "39053344705", "Rio", {"a": "b"}
    made.client.save()

    with time_machine.travel(travel_end_date(made) + timedelta(days=45), tick=False):
        assert erase_expired_passenger_data.delay().get() == 2

    kept = live_client.get(f"/api/v1/clients/{named.client_id}").json()["data"]
    assert kept == record
    erased = live_client.get(f"/api/v1/clients/{made.client_id}").json()["data"]
    assert {k: erased[k] for k in ("full_name", "email", "tax_id", "city", "metadata")} == {
        "full_name": ERASED,
        "email": f"{made.client_id}@erased.invalid",
        "tax_id": None,
        "city": None,
        "metadata": {},
    }
    assert live_client.get("/api/v1/clients", {"q": "ana"}).json()["data"] == []
