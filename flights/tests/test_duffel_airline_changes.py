"""Airline-initiated changes over the API against the Duffel-shaped server (fake_duffel, real
HTTP): Duffel's signed webhook makes us read the order's changes back (never its body), the
periodic check finds them too, each change is recorded once; listing it, accepting it at
Duffel, the booking's slices moving with `booking.updated` (`previous_attributes.slices`) and
the e-mail with the old and new times; cancelling on a change goes through the cancellations
(the airline's involuntary refund). The ledger checks out after each."""

import json
import time
from decimal import Decimal
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command

from bookings.models import Booking, BookingAirlineChange
from bookings.tasks import check_airline_changes
from flights.suppliers.duffel.webhooks import signature_for
from flights.tests import duffel_kit
from flights.tests.duffel_kit import payment, person, search
from tests.kit.factories import fund
from wallet.models import Transaction
from webhooks.models import Event

pytestmark = pytest.mark.django_db
duffel = duffel_kit.duffel  # the fake Duffel, the team connected to it for live mode
SECRET = "whsec_duffel_0123456789abcdef"
WEBHOOK = "/api/v1/suppliers/duffel/webhooks"


@pytest.fixture(autouse=True)
def _secret(settings):
    settings.DUFFEL_WEBHOOK_SECRET = SECRET


def ticketed(client, family_name: str = "Albuquerque") -> dict:
    offer = next(
        o
        for o in search(client, [{"type": "adult", "count": 1}])["offers"]
        if o["total_currency"] == "USD"
    )
    passenger = {
        **person(offer["passengers"][0]["id"], given="Marina", born="1988-07-14"),
        "family_name": family_name,
    }
    response = client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [passenger],
            "payments": [payment(offer)],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "ticketed"
    return response.json()


def duffel_event(client, order_id: str, *, secret: str = SECRET, body: dict | None = None):
    """Duffel's `order.airline_initiated_change_detected`, signed as Duffel signs it. Its body
    claims a change we never trust (the read-back is what counts)."""
    event = body or {
        "id": "wev_0000A4tQSmKyqOrcySrGbo",
        "api_version": "v2",
        "type": "order.airline_initiated_change_detected",
        "data": {
            "object": {
                "id": "aic_0000Forged",
                "order_id": order_id,
                "added": [{"segments": [{"departing_at": "2031-01-01T00:00:00"}]}],
                "removed": [],
            }
        },
        "live_mode": True,
        "idempotency_key": "aic_0000Forged",
        "created_at": "2027-03-11T12:18:12.642000Z",
        "identity_organisation_id": "org_0000APMFjhs4X2rJ6k7UIE",
    }
    raw = json.dumps(event).encode()
    return client.post(
        WEBHOOK,
        raw,
        content_type="application/json",
        HTTP_X_DUFFEL_SIGNATURE=signature_for(raw, secret, str(int(time.time()))),
    )


def order_of(booking_id: str) -> str:
    return Booking.objects.get(pk=booking_id).supplier_order_id


def assert_ledger_clean() -> None:
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()


def events(booking_id: str, type_: str) -> list[Event]:
    return [
        e
        for e in Event.objects.filter(type=type_).order_by("created_at", "id")
        if e.data_object["id"] == booking_id
    ]


def test_a_change_is_read_back_recorded_once_accepted_and_moves_the_slices(
    duffel, live_client, team, client, django_capture_on_commit_callbacks
):
    fund(team, "50000.00")
    booking = ticketed(live_client)
    order_id = order_of(booking["id"])
    change = duffel.state.add_airline_change(order_id)
    mail.outbox.clear()

    # Duffel's event (sent twice: at least once, retried), and the periodic check: one change.
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            answer = duffel_event(client, order_id)
            assert answer.status_code == 200, answer.content
            assert answer.json() == {"received": True, "result": "checking"}
        assert check_airline_changes.delay().get() >= 1
    assert BookingAirlineChange.objects.count() == 1
    assert ("GET", f"/air/airline_initiated_changes?order_id={order_id}") in duffel.state.requests

    listed = live_client.get(f"/api/v1/bookings/{booking['id']}/airline_changes")
    assert listed.status_code == 200
    [data] = listed.json()["data"]
    assert data["id"].startswith("aic_") and data["id"] != change["id"]  # ours, not Duffel's
    assert data["available_actions"] == ["accept", "cancel", "change"]
    assert data["action_taken"] is None and data["action_taken_at"] is None
    # Duffel's slices in the booking's shape, local times (not the forged body's 2031).
    old_segment = booking["slices"][0]["segments"][0]
    [removed], [added] = data["removed"], data["added"]
    assert removed["segments"][0]["departing_at"] == old_segment["departing_at"]
    new_departure = change["added"][0]["segments"][0]["departing_at"]
    assert added["segments"][0]["departing_at"] == new_departure != old_segment["departing_at"]
    assert added["segments"][0]["passengers"] == [
        {
            "passenger_id": booking["passengers"][0]["id"],
            "cabin_class": "economy",
            "seat": None,
            "baggages": old_segment["passengers"][0]["baggages"],
        }
    ]
    assert set(added) == set(booking["slices"][0])  # the booking's slice shape
    [detected] = events(booking["id"], "booking.airline_change_detected")
    assert detected.data_object["airline_change"]["id"] == data["id"]
    # One e-mail to the traveller, and the agency's own, with the old and the new times.
    email, agency_copy = mail.outbox
    assert email.to == ["marina.albuquerque@example.com"]
    assert agency_copy.subject.startswith("Cópia da agência: Novos horários")
    assert email.subject.startswith("Novos horários")
    body = email.body
    assert "Antes da mudança" in body and "Novos horários" in body
    assert body.count("10:15") >= 1 and "12:50" in body  # 10:15 moved 2 h 35 min later

    accepted = live_client.post(
        f"/api/v1/bookings/{booking['id']}/airline_changes/{data['id']}/accept",
        HTTP_IDEMPOTENCY_KEY="aic-accept-1",
    )
    assert accepted.status_code == 200, accepted.content
    result = accepted.json()["data"]
    assert result["action_taken"] == "accepted" and result["action_taken_at"]
    assert duffel.state.airline_changes[change["id"]]["action_taken"] == "accepted"
    replay = live_client.post(
        f"/api/v1/bookings/{booking['id']}/airline_changes/{data['id']}/accept",
        HTTP_IDEMPOTENCY_KEY="aic-accept-1",
    )
    assert replay["Idempotent-Replayed"] == "true" and replay.json()["data"] == result
    again = live_client.post(
        f"/api/v1/bookings/{booking['id']}/airline_changes/{data['id']}/accept"
    )
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "airline_change_already_actioned"

    moved = live_client.get(f"/api/v1/bookings/{booking['id']}").json()
    assert moved["slices"][0]["segments"][0]["departing_at"] == new_departure
    assert moved["slices"][1] == booking["slices"][1]  # the return is untouched
    [updated] = [
        e
        for e in events(booking["id"], "booking.updated")
        if "slices" in (e.previous_attributes or {})
    ]
    assert updated.previous_attributes["slices"] == booking["slices"]
    assert updated.data_object["slices"] == moved["slices"]
    # Checking again changes nothing more.
    updates = len(events(booking["id"], "booking.updated"))
    check_airline_changes.delay().get()
    assert len(events(booking["id"], "booking.updated")) == updates
    assert BookingAirlineChange.objects.count() == 1 and len(mail.outbox) == 2
    assert_ledger_clean()


def test_cancelling_on_a_change_refunds_what_the_airline_confirms(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Schedulechange")  # the fake changes it at once
    listed = live_client.get(f"/api/v1/bookings/{booking['id']}/airline_changes").json()
    assert listed["data"] == []  # nothing read yet: the check or Duffel's event finds it
    check_airline_changes.delay().get()
    [change] = live_client.get(f"/api/v1/bookings/{booking['id']}/airline_changes").json()["data"]
    assert "cancel" in change["available_actions"]

    quote = live_client.post(f"/api/v1/bookings/{booking['id']}/cancellations").json()["data"]
    # The airline changed the flights: its involuntary refund is the whole fare.
    assert quote["refund_amount"] == booking["total_amount"]
    confirmed = live_client.post(
        f"/api/v1/bookings/{booking['id']}/cancellations/{quote['id']}/confirm"
    )
    assert confirmed.status_code == 200, confirmed.content
    refunds = Transaction.objects.filter(reference_type="refund", reference_id=booking["id"])
    assert [t.amount for t in refunds] == [Decimal(quote["wallet_credit_amount"])]
    # The next check reads the change's answer: cancelled (the booking no longer needs it).
    check_airline_changes.delay().get()
    [after] = live_client.get(f"/api/v1/bookings/{booking['id']}/airline_changes").json()["data"]
    assert after["action_taken"] == "cancelled"
    refused = live_client.post(
        f"/api/v1/bookings/{booking['id']}/airline_changes/{change['id']}/accept"
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "airline_change_already_actioned"
    assert_ledger_clean()


def test_refusals_in_the_error_shape(duffel, live_client, team, client, settings):
    fund(team, "50000.00")
    booking = ticketed(live_client)
    order_id = order_of(booking["id"])
    change = duffel.state.add_airline_change(order_id)
    change["available_actions"] = ["cancel"]  # the airline allows no acceptance
    unknown = live_client.post(
        f"/api/v1/bookings/{booking['id']}/airline_changes/aic_01m84t9w2e0a2c4e6g8j0l2n4q/accept"
    )
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "airline_change_not_found"

    # A forged event (another secret), and one with no signature: 401, nothing read.
    assert duffel_event(client, order_id, secret="not-the-secret").status_code == 401
    unsigned = client.post(WEBHOOK, b"{}", content_type="application/json")
    assert unsigned.status_code == 401 and unsigned.json()["error"]["code"] == "unauthorized"
    assert BookingAirlineChange.objects.count() == 0
    # Another event type, an unknown order: answered, nothing done.
    ping = duffel_event(client, order_id, body={"type": "ping.triggered", "data": {}})
    assert ping.json()["result"] == "ignored"
    other = duffel_event(client, "ord_0000Unknown")
    assert other.json()["result"] == "unknown_order"

    assert duffel_event(client, order_id).status_code == 200
    [data] = live_client.get(f"/api/v1/bookings/{booking['id']}/airline_changes").json()["data"]
    refused = live_client.post(
        f"/api/v1/bookings/{booking['id']}/airline_changes/{data['id']}/accept"
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "airline_change_action_unavailable"
    assert refused.json()["error"]["details"] == {"available_actions": ["cancel"]}

    settings.DUFFEL_WEBHOOK_SECRET = ""  # not configured: Duffel keeps the event for later
    down = duffel_event(client, order_id)
    assert down.status_code == 503
    assert down.json()["error"]["code"] == "supplier_webhook_not_configured"
    assert_ledger_clean()


def test_a_change_accepted_at_duffel_is_applied_by_the_next_check(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client)
    change = duffel.state.add_airline_change(order_of(booking["id"]))
    check_airline_changes.delay().get()
    duffel.state.accept_airline_change(change["id"])  # in Duffel's dashboard, not through us
    for _ in range(2):
        check_airline_changes.delay().get()
    [data] = live_client.get(f"/api/v1/bookings/{booking['id']}/airline_changes").json()["data"]
    assert data["action_taken"] == "accepted"
    moved = live_client.get(f"/api/v1/bookings/{booking['id']}").json()
    new_departure = change["added"][0]["segments"][0]["departing_at"]
    assert moved["slices"][0]["segments"][0]["departing_at"] == new_departure
    updates = [
        e
        for e in events(booking["id"], "booking.updated")
        if "slices" in (e.previous_attributes or {})
    ]
    assert len(updates) == 1  # applied once, however many checks
    assert_ledger_clean()
