"""Live mode needs a real supplier: a live key of a team without an active supplier integration
is refused (`supplier_not_connected`) on search and on booking, and nothing is written, unless
the operator allows the sandbox in live mode (FLIGHTS_LIVE_SANDBOX). Test keys always use the
sandbox."""

from decimal import Decimal
from unittest.mock import ANY

import pytest

from agencies.services import integration_connect, integration_disconnect
from bookings.models import Booking
from flights.models import OfferRequest
from flights.suppliers import supplier_for
from flights.suppliers.base import SupplierNotConnected
from flights.suppliers.duffel import DuffelSupplier
from flights.suppliers.sandbox import SandboxSupplier
from tests.kit.booking_bodies import booking_body
from tests.kit.factories import fund
from wallet.models import Transaction, Wallet
from webhooks.models import Event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time")]

SEARCH = {
    "type": "one_way",
    "slices": [{"origin": "GRU", "destination": "BSB", "departureDate": "2027-01-15"}],
    "passengers": [{"type": "adult", "count": 1}],
}
NOT_CONNECTED = {
    "success": False,
    "error": {
        "code": "supplier_not_connected",
        "message": "No flight supplier is connected for live mode; "
        "connect one (Duffel) or use a test key",
        "details": None,
        "request_id": ANY,
        "doc_url": "http://testserver/api/v1/docs/errors/supplier_not_connected",
    },
}


def test_a_live_search_without_a_supplier_is_refused_and_stores_nothing(live_client, settings):
    assert settings.FLIGHTS_LIVE_SANDBOX is False  # the default: never implied by DEBUG

    response = live_client.post("/api/v1/flights/search", SEARCH, format="json")

    assert response.status_code == 422
    assert response.json() == NOT_CONNECTED
    assert not OfferRequest.objects.exists()  # offers are stored in their search


def test_a_live_booking_without_a_supplier_is_refused_and_writes_nothing(
    live_client, team, settings
):
    # An offer searched while the operator allowed the sandbox in live mode...
    fund(team, "10000.00")
    settings.FLIGHTS_LIVE_SANDBOX = True
    offers = live_client.post("/api/v1/flights/search", SEARCH, format="json").json()["offers"]
    offer = offers[0]
    holdable = next(o for o in offers if not o["payment_requirements"]["requires_instant_payment"])
    events = Event.objects.count()
    # ...is not booked once it no longer does: no booking, no debit, no event.
    settings.FLIGHTS_LIVE_SANDBOX = False

    hold = {**booking_body(holdable, type="instant"), "type": "hold"}
    for body in (booking_body(offer, type="instant"), hold):
        response = live_client.post("/api/v1/bookings", body, format="json")
        assert response.status_code == 422
        assert response.json() == NOT_CONNECTED

    assert not Booking.objects.exists()
    assert not Transaction.objects.filter(type="debit").exists()
    assert Wallet.objects.get(team=team).balance == Decimal("10000.00")
    assert Event.objects.count() == events


def test_a_disconnected_duffel_integration_refuses_live_bookings(live_client, team, settings):
    fund(team, "10000.00")
    settings.FLIGHTS_LIVE_SANDBOX = True
    offer = live_client.post("/api/v1/flights/search", SEARCH, format="json").json()["offers"][0]
    settings.FLIGHTS_LIVE_SANDBOX = False
    integration = integration_connect(
        team=team, live_mode=True, provider="duffel", access_token="duffel_live_x"
    )
    integration_disconnect(integration=integration)

    body = booking_body(offer, type="instant")
    response = live_client.post("/api/v1/bookings", body, format="json")

    assert response.status_code == 422
    assert response.json()["error"]["code"] == "supplier_not_connected"
    assert not Booking.objects.exists()
    assert not Transaction.objects.filter(type="debit").exists()


def test_the_operator_can_allow_the_sandbox_in_live_mode(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "10000.00")

    result = live_client.post("/api/v1/flights/search", SEARCH, format="json")
    assert result.status_code == 200
    offer = result.json()["offers"][0]
    body = booking_body(offer, type="instant")
    booked = live_client.post("/api/v1/bookings", body, format="json")

    assert booked.status_code == 201, booked.content
    assert booked.json()["status"] == "ticketed"
    assert OfferRequest.objects.get(pk=result.json()["id"]).supplier == "sandbox"


def test_test_keys_always_use_the_sandbox(test_client, settings):
    settings.FLIGHTS_LIVE_SANDBOX = False

    response = test_client.post("/api/v1/flights/search", SEARCH, format="json")

    assert response.status_code == 200 and response.json()["offers"]


def test_supplier_for(team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = False
    assert isinstance(supplier_for(team=team, live_mode=False), SandboxSupplier)
    with pytest.raises(SupplierNotConnected):
        supplier_for(team=team, live_mode=True)
    # A test-mode integration does not serve live mode.
    integration_connect(team=team, live_mode=False, provider="duffel", access_token="t")
    with pytest.raises(SupplierNotConnected):
        supplier_for(team=team, live_mode=True)

    integration_connect(team=team, live_mode=True, provider="duffel", access_token="t")
    assert isinstance(supplier_for(team=team, live_mode=True), DuffelSupplier)

    settings.FLIGHTS_LIVE_SANDBOX = True  # a connected supplier still wins
    assert isinstance(supplier_for(team=team, live_mode=True), DuffelSupplier)
