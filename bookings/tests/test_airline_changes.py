"""Airline-initiated changes on the sandbox (its Schedulechange scenario, docs/sandbox.md): the
change listed over the API, recorded once however often it is read (and, on PostgreSQL with real
threads, however many readers race), accepted with the booking's slices moved, `booking.updated`
carrying the old ones, the e-mail with the old and new times; support's needs-attention and
the booking's page; Duffel's webhook signature."""

import hashlib
import hmac
import threading
from datetime import datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connections
from django.urls import reverse

from agencies.tests.factories import SupportUserFactory
from bookings.models import Booking, BookingAirlineChange
from bookings.selectors import bookings_needing_attention
from bookings.services import booking_airline_changes_sync, bookings_airline_changes_due
from bookings.services.airline_changes import moved_slices
from bookings.tests.helpers import book, offers, passenger
from dashboard.display import attention
from flights.suppliers.duffel.webhooks import event_from, genuine, signature_for
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from tests.kit.panel import browser_for
from webhooks.models import Event

SHIFT = timedelta(hours=2, minutes=35)  # the scenario's


@pytest.fixture
def client(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "100000.00")
    return live_client


def changed_booking(client, family_name: str = "Schedulechange") -> Booking:
    offer = next(o for o in offers(client) if o["payment_requirements"]["requires_instant_payment"])
    response = book(
        client,
        offer,
        type="instant",
        people=[passenger(offer["passengers"][0]["id"], family_name=family_name)],
        payments=[
            {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        ],
    )
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.status == "ticketed"
    return booking


def later(local: str) -> str:
    return (datetime.fromisoformat(local) + SHIFT).isoformat(timespec="seconds")


@pytest.mark.django_db
def test_a_sandbox_change_is_listed_accepted_and_moves_the_slices(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        booking = changed_booking(client)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        listed = client.get(f"/api/v1/bookings/{booking.id}/airline_changes")
    assert listed.status_code == 200
    [change] = listed.json()["data"]
    before = booking.slices
    first = before[0]["segments"][0]
    [removed] = change["removed"]
    assert [
        (s["departing_at"], s["marketing_carrier_flight_number"]) for s in removed["segments"]
    ] == [(s["departing_at"], s["marketing_carrier_flight_number"]) for s in before[0]["segments"]]
    assert change["added"][0]["segments"][0]["departing_at"] == later(first["departing_at"])
    assert change["available_actions"] == ["accept", "cancel"]
    email, agency_copy = mail.outbox  # the travellers', then the agency's own
    assert f"Novos horários de voo na reserva {booking.booking_reference}" in email.subject
    assert agency_copy.subject == f"Cópia da agência: {email.subject}"
    assert "Antes da mudança" in email.body and "Novos horários" in email.body
    # Reading it again (the check, a webhook's retry) records nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        assert booking_airline_changes_sync(booking=booking) == []
        client.get(f"/api/v1/bookings/{booking.id}/airline_changes")
    assert BookingAirlineChange.objects.count() == 1 and len(mail.outbox) == 2
    detected = Event.objects.filter(type="booking.airline_change_detected")
    assert [e.data_object["airline_change"]["id"] for e in detected] == [change["id"]]
    assert booking.id in bookings_needing_attention().values_list("id", flat=True)
    [listed_for_support] = [a for a in attention(live_mode=True) if a["key"] == "airline_changes"]
    assert listed_for_support["count"] == 1

    accepted = client.post(f"/api/v1/bookings/{booking.id}/airline_changes/{change['id']}/accept")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["data"]["action_taken"] == "accepted"
    booking.refresh_from_db()
    assert booking.slices[0]["segments"][0]["departing_at"] == later(first["departing_at"])
    assert booking.slices[1:] == before[1:]
    zone = ZoneInfo(booking.slices[0]["origin"]["time_zone"])
    local = booking.departing_at.astimezone(zone).replace(tzinfo=None)
    assert local.isoformat(timespec="seconds") == later(first["departing_at"])  # it follows
    slices_events = [
        e
        for e in Event.objects.filter(type="booking.updated")
        if "slices" in (e.previous_attributes or {})
    ]
    assert len(slices_events) == 1
    assert slices_events[0].previous_attributes == {"slices": before}
    assert slices_events[0].data_object["slices"] == booking.slices
    again = client.post(f"/api/v1/bookings/{booking.id}/airline_changes/{change['id']}/accept")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "airline_change_already_actioned"
    assert booking.id not in bookings_needing_attention().values_list("id", flat=True)
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()


@pytest.mark.django_db
def test_the_periodic_check_reads_ticketed_bookings_not_departed(client):
    changed = changed_booking(client)
    plain = changed_booking(client, "Albuquerque")
    due = bookings_airline_changes_due()
    assert {changed.id, plain.id} <= set(due)
    assert bookings_airline_changes_due(now=changed.departing_at + timedelta(minutes=1)) == [
        b for b in due if Booking.objects.get(pk=b).departing_at > changed.departing_at
    ]
    assert booking_airline_changes_sync(booking=plain) == []
    assert len(booking_airline_changes_sync(booking=changed)) == 1


@pytest.mark.django_db
def test_support_sees_the_change_on_the_booking_page(client):
    booking = changed_booking(client)
    booking_airline_changes_sync(booking=booking)
    support = SupportUserFactory()
    page = browser_for(support).get(reverse("admin:bookings_booking_change", args=[booking.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Mudanças de horário da companhia aérea" in text and "Sem resposta" in text
    first = booking.slices[0]["segments"][0]
    assert later(first["departing_at"])[11:16] in text
    listed = browser_for(support).get(
        reverse("admin:bookings_booking_changelist") + "?attention=yes&mode=live"
    )
    assert booking.booking_reference in listed.content.decode()


def test_moved_slices_replace_the_removed_ones_in_place():
    def slice_(origin, destination, tag):
        return {
            "origin": {"iata_code": origin},
            "destination": {"iata_code": destination},
            "tag": tag,
        }

    booked = [slice_("GRU", "LIS", "out"), slice_("LIS", "GRU", "back")]
    new_back = slice_("LIS", "GRU", "new")
    assert moved_slices(booked, [booked[1]], [new_back]) == [booked[0], new_back]
    # A connection added: the one slice gives way to two, in its place.
    via = [slice_("GRU", "MAD", "a"), slice_("MAD", "LIS", "b")]
    assert moved_slices(booked, [booked[0]], via) == [*via, booked[1]]
    # Nothing recognisable removed: the slices stay.
    assert moved_slices(booked, [slice_("CGH", "SDU", "x")], [new_back]) == booked


def test_duffel_signatures_are_checked_as_duffel_signs():
    body = (
        b'{"type":"order.airline_initiated_change_detected","data":{"object":{"order_id":"ord_1"}}}'
    )
    digest = hmac.new(b"s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    header = f"t=1700000000,v1={digest}"
    assert signature_for(body, "s3cret", "1700000000") == header
    assert genuine(body, header, "s3cret")
    assert not genuine(body + b" ", header, "s3cret")  # the body changed
    assert not genuine(body, header, "other")  # another secret
    assert not genuine(body, header.replace("t=1700000000", "t=1700000001"), "s3cret")
    assert not genuine(body, f"v1={digest}", "s3cret")  # not Duffel's format
    assert not genuine(body, header, "")  # no secret: nothing is genuine
    event = event_from(body)
    assert event is not None and event.order_id == "ord_1"
    assert event_from(b"not json") is None


@pytest.mark.django_db(transaction=True)
@needs_postgresql("row locks and concurrent readers")
def test_racing_readers_record_a_change_once(client):
    booking = changed_booking(client)
    threads_count = 6
    start, results = threading.Barrier(threads_count), []

    def read():
        try:
            start.wait()
            results.append(len(booking_airline_changes_sync(booking=booking)))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=read) for _ in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [0] * (threads_count - 1) + [1]
    assert BookingAirlineChange.objects.filter(booking=booking).count() == 1
    assert Event.objects.filter(type="booking.airline_change_detected").count() == 1


@pytest.mark.django_db
def test_the_change_email_is_in_english_for_a_team_that_chose_it(
    client, team, django_capture_on_commit_callbacks
):
    team.language = "en"
    team.save()
    booking = changed_booking(client)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        booking_airline_changes_sync(booking=booking)
    email, _ = mail.outbox
    assert email.subject == f"New flight times for booking {booking.booking_reference}"
    assert "Before the change" in email.body and "New times" in email.body
    assert "Times are the local time of each airport." in email.body
