"""Every booking transition and every booking error, through the API, in BOTH modes.

The `agency` fixture runs each test twice: with the team's test key (the sandbox wallet, a
constant 5000.00 BRL) and with its live key (the real wallet, funded with exactly 5000.00), so
that the same offers are affordable, or not, in both modes. Offers come from the sandbox
supplier, searched at a frozen instant; they are chosen by their properties (hold or
instant-only, refund conditions, cost), never by position."""

from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

import pytest
import time_machine
from rest_framework.test import APIClient

from agencies.models import Client, Team
from bookings.models import Booking, BookingEmail
from bookings.services import BookingNotCancellable, booking_cancel
from bookings.tasks import expire_holds, issue_tickets
from tests.kit.clock import NOW
from tests.kit.factories import fund
from tests.kit.passengers import passenger
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction, Wallet
from webhooks.models import Event

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

BOOKINGS = "/api/v1/bookings"
BALANCE = Decimal("5000.00")  # the test wallet's constant, and what the live wallet holds
ZERO = Decimal("0.00")
CENT = Decimal("0.01")
TICKET_PREFIX = {"G3": "127", "AD": "577", "LA": "957", "AR": "044"}  # docs/sandbox.md
PASSPORT = {
    "type": "passport",
    "unique_identifier": "FX123456",
    "issuing_country_code": "BR",
    "expires_on": "2032-01-01",
}
INSTANT_ONLY = "This offer requires instant payment: book it with type instant"


class Agency(NamedTuple):
    client: APIClient
    team: Team
    mode: str

    @property
    def live(self) -> bool:
        return self.mode == "live"


def api_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


@pytest.fixture(params=["test", "live"])
def agency(request, team, team_keys) -> Agency:
    """(API client, team, mode); the live wallet is funded with 5000.00."""
    live = request.param == "live"
    if live:
        fund(team, f"{BALANCE}")
    return Agency(
        api_client(team_keys.live_key if live else team_keys.test_key), team, request.param
    )


def other_mode_client(agency: Agency, keys) -> APIClient:
    """A client of the same team in the other mode (`keys`: the `team_keys` fixture)."""
    return api_client(keys.test_key if agency.live else keys.live_key)


# --- Offers and requests ---------------------------------------------------------------------


def search(client: APIClient, destination: str = "BSB", *, children: int = 0) -> list[dict]:
    passengers = [{"type": "adult", "count": 1}]
    if children:
        passengers.append({"type": "child", "count": children})
    body = {
        "type": "one_way",
        "slices": [{"origin": "GRU", "destination": destination, "departureDate": "2027-01-15"}],
        "passengers": passengers,
    }
    response = client.post("/api/v1/flights/search", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["offers"]


def refund_condition(offer: dict) -> dict:
    return offer["conditions"]["refund_before_departure"]


def partial_penalty(offer: dict) -> bool:
    """Refundable, with a penalty that leaves something to refund."""
    condition = refund_condition(offer)
    return (
        condition["allowed"]
        and condition["penalty_amount"] is not None
        and ZERO < Decimal(condition["penalty_amount"]) < Decimal(offer["total_amount"])
    )


def pick(
    offers: list[dict],
    *,
    hold: bool | None = None,
    refundable: bool | None = None,
    currency: str | None = None,
    cost_above: Decimal | None = None,
    cost_below: Decimal | None = None,
) -> dict:
    """The first offer with these properties. `hold`: it can be held (True) or must be paid at
    once (False); `refundable`: refundable with a partial penalty (True) or not at all (False)."""
    for offer in offers:
        cost = Decimal(offer["base_cost_brl"])
        if hold is not None and offer["payment_requirements"]["requires_instant_payment"] == hold:
            continue
        if refundable is True and not partial_penalty(offer):
            continue
        if refundable is False and refund_condition(offer)["allowed"]:
            continue
        if currency is not None and offer["total_currency"] != currency:
            continue
        if cost_above is not None and cost <= cost_above:
            continue
        if cost_below is not None and cost >= cost_below:
            continue
        return offer
    pytest.fail("the sandbox returned no offer with these properties")


def travellers(offer: dict, *, family: str = "Souza", passport: bool = True) -> list[dict]:
    """A valid passenger for each of the offer's passengers (adults, then children)."""
    born = {"adult": "1990-05-01", "child": "2018-03-10"}
    documents = {"identity_documents": [PASSPORT]} if passport else {}
    return [
        passenger(p["id"], family_name=family, born_on=born[p["type"]], **documents)
        for p in offer["passengers"]
    ]


def payment_of(offer: dict, **change) -> dict:
    return {
        "type": "balance",
        "amount": offer["total_amount"],
        "currency": offer["total_currency"],
        **change,
    }


def create(
    client: APIClient, offer: dict, type: str = "hold", *, people=None, payments=..., **fields
):
    body = {
        "offerId": offer["id"],
        "type": type,
        "passengers": people or travellers(offer),
        **fields,
    }
    if payments is ...:
        payments = [payment_of(offer)] if type == "instant" else None
    if payments is not None:
        body["payments"] = payments
    return client.post(BOOKINGS, body, format="json")


def created(client: APIClient, offer: dict, type: str = "hold", **kwargs) -> dict:
    response = create(client, offer, type, **kwargs)
    assert response.status_code == 201, response.json()
    return response.json()


def confirm(client: APIClient, booking_id: str, payment: dict):
    return client.put(f"{BOOKINGS}/{booking_id}/confirm", {"payment": payment}, format="json")


def cancel(client: APIClient, booking_id: str):
    return client.delete(f"{BOOKINGS}/{booking_id}")


SPEC_REFUND = ("amount", "currency", "penalty_amount", "penalty_currency")


def spec_cancel(data: dict) -> dict:
    """The spec's cancel result (its refund's own fields; the others are checked apart)."""
    return {**data, "refund": {key: data["refund"][key] for key in SPEC_REFUND}}


def read(agency: Agency, booking_id: str) -> dict:
    response = agency.client.get(f"{BOOKINGS}/{booking_id}")
    assert response.status_code == 200
    return response.json()


# --- What a request left behind ----------------------------------------------------------------


def refused(agency: Agency, response, status: int, message: str) -> dict:
    """The error body, after checking its status, exact message and the test-mode `_meta`."""
    body = response.json()
    assert (response.status_code, body["error"]["message"]) == (status, message), body
    assert body["success"] is False
    assert ("_meta" in body) is not agency.live
    return body["error"]


def footprint() -> tuple:
    """Everything a booking request can write: a failed request must change none of it."""
    return (
        sorted(Booking.objects.values_list("id", "status")),
        Transaction.objects.count(),
        Event.objects.count(),
        Client.objects.count(),
        BookingEmail.objects.count(),
    )


def after(agency: Agency, spent: Decimal) -> Decimal:
    """The balance after spending `spent`: the test wallet never moves."""
    return BALANCE - spent if agency.live else BALANCE


def ledger(agency: Agency, booking_id: str) -> list[tuple]:
    """(type, reference_type, amount, balance_after) of the booking's wallet transactions."""
    rows = Transaction.objects.filter(team=agency.team, reference_id=booking_id)
    assert {t.live_mode for t in rows} <= {agency.live}
    return sorted((t.type, t.reference_type, t.amount, t.balance_after) for t in rows)


def wallet(agency: Agency) -> dict:
    data = agency.client.get("/api/v1/wallet/balance").json()["data"]
    return {k: data[k] for k in ("balance", "available_credit", "pending_amount")}


def assert_wallet(agency: Agency, *, spent: Decimal, pending: Decimal = ZERO) -> None:
    balance = after(agency, spent)
    assert wallet(agency) == {
        "balance": f"{balance:.2f}",
        "available_credit": f"{max(balance - pending, ZERO):.2f}",
        "pending_amount": f"{pending:.2f}",
    }
    # The live wallet row moves in live mode only (the test wallet never touches it).
    assert Wallet.objects.get(team=agency.team).balance == (balance if agency.live else ZERO)


def booking_events(agency: Agency, booking_id: str) -> list[tuple]:
    """(type, data.object.status, previous_attributes.status) of the booking's events, all of
    them of the agency's mode, in lifecycle order (events written in one frozen instant have no
    order of their own)."""
    events = [
        e
        for e in Event.objects.filter(team=agency.team, type__startswith="booking.")
        if e.data_object["id"] == booking_id
    ]
    assert {e.live_mode for e in events} <= {agency.live}
    described = [
        (e.type, e.data_object["status"], e.previous_attributes.get("status")) for e in events
    ]
    state_events = [event for event in described if event[0] != "booking.updated"]
    # Every change after creation is also a booking.updated with the same object and previous
    # attributes (the spec: "data or status change").
    updates = sorted(event[1:] for event in described if event[0] == "booking.updated")
    assert updates == sorted(event[1:] for event in state_events if event[0] != "booking.created")
    return sorted(state_events, key=lambda event: LIFECYCLE.index(event[0]))


def event_documents(booking_id: str) -> dict:
    """The `documents` each booking state event of the booking carries, by event type."""
    return {
        e.type: e.data_object["documents"]
        for e in Event.objects.filter(type__startswith="booking.").exclude(type="booking.updated")
        if e.data_object["id"] == booking_id
    }


def wallet_events(agency: Agency, booking_id: str) -> list[tuple]:
    events = [
        e
        for e in Event.objects.filter(team=agency.team, type__startswith="wallet.")
        if e.data_object.get("reference_id") == booking_id
    ]
    assert {e.live_mode for e in events} <= {agency.live}
    return sorted(
        (e.type, e.data_object["reference_type"], e.data_object["amount"]) for e in events
    )


LIFECYCLE = [
    "booking.created",
    "booking.confirmed",
    "booking.ticketed",
    "booking.failed",
    "booking.cancelled",
    "booking.expired",
]
CREATED = ("booking.created", "pending", None)
CONFIRMED = ("booking.confirmed", "confirmed", "pending")
TICKETED = ("booking.ticketed", "ticketed", "confirmed")


def rounded(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


# --- Create ----------------------------------------------------------------------------------


def test_hold_is_pending_without_a_debit_and_counts_in_pending_amount(agency):
    offer = pick(search(agency.client), hold=True)
    booking = created(agency.client, offer, metadata={"ref": "ABC-1"})
    assert "success" not in booking  # unwrapped, as the spec says
    assert booking["status"] == "pending" and booking["type"] == "hold"
    assert booking["id"].startswith("ord_") and len(booking["booking_reference"]) == 6
    assert booking["live_mode"] is agency.live
    assert booking["metadata"] == {"ref": "ABC-1"}
    assert booking["payment_status"]["awaiting_payment"] is True
    deadline = datetime.fromisoformat(booking["payment_status"]["payment_required_by"])
    assert timedelta(hours=24) <= deadline - NOW <= timedelta(hours=72)
    assert booking["total_amount"] == offer["total_amount"]
    assert booking["documents"] == []
    segment_passenger = booking["slices"][0]["segments"][0]["passengers"][0]
    assert set(segment_passenger) == {"passenger_id", "cabin_class", "seat", "baggages"}
    assert read(agency, booking["id"]) == booking
    assert ledger(agency, booking["id"]) == []
    assert_wallet(agency, spent=ZERO, pending=Decimal(offer["base_cost_brl"]))
    assert booking_events(agency, booking["id"]) == [CREATED]


def test_instant_is_ticketed_with_documents_and_debits_the_base_cost(agency):
    offer = pick(search(agency.client, children=1), hold=False)
    booking = created(agency.client, offer, "instant")
    assert booking["status"] == "ticketed" and booking["live_mode"] is agency.live
    assert booking["payment_status"]["awaiting_payment"] is False
    tickets = {d["passenger_id"]: d for d in booking["documents"]}
    assert set(tickets) == {p["id"] for p in offer["passengers"]}  # one per passenger
    prefix = TICKET_PREFIX[offer["owner"]["iata_code"]]
    for ticket in tickets.values():
        assert ticket["type"] == "electronic_ticket"
        number = ticket["unique_identifier"]
        assert len(number) == 13 and number.isdigit() and number.startswith(prefix)
    cost = Decimal(offer["base_cost_brl"])
    # A ledger row in both modes; in test mode it leaves the constant balance as it is.
    assert ledger(agency, booking["id"]) == [("debit", "booking", cost, after(agency, cost))]
    assert_wallet(agency, spent=cost)
    assert booking_events(agency, booking["id"]) == [CREATED, CONFIRMED, TICKETED]
    # Each event shows its own state: no tickets before booking.ticketed.
    assert event_documents(booking["id"]) == {
        "booking.created": [],
        "booking.confirmed": [],
        "booking.ticketed": booking["documents"],
    }
    assert wallet_events(agency, booking["id"]) == [("wallet.debit", "booking", f"{cost:.2f}")]


def test_instant_whose_issuance_fails_is_failed_and_refunded_in_full(agency):
    offer = pick(search(agency.client), hold=False)
    booking = created(
        agency.client, offer, "instant", people=travellers(offer, family="Issuancefail")
    )
    assert booking["status"] == "failed" and booking["documents"] == []
    assert read(agency, booking["id"])["status"] == "failed"
    cost = Decimal(offer["base_cost_brl"])
    assert ledger(agency, booking["id"]) == [
        ("credit", "refund", cost, BALANCE),
        ("debit", "booking", cost, after(agency, cost)),
    ]
    assert_wallet(agency, spent=ZERO)
    assert booking_events(agency, booking["id"]) == [
        CREATED,
        ("booking.failed", "failed", "pending"),
    ]
    assert wallet_events(agency, booking["id"]) == [
        ("wallet.credit", "refund", f"{cost:.2f}"),
        ("wallet.debit", "booking", f"{cost:.2f}"),
    ]


# --- Confirm ---------------------------------------------------------------------------------


def test_confirm_debits_then_tickets_are_issued(agency, django_capture_on_commit_callbacks):
    offer = pick(search(agency.client, children=1), hold=True)
    booking = created(agency.client, offer)
    with django_capture_on_commit_callbacks(execute=True) as queued:  # runs the ticketing task
        response = confirm(agency.client, booking["id"], payment_of(offer))
    assert response.status_code == 200
    assert ("_meta" in response.json()) is not agency.live
    # After commit: the ticketing task of this booking, which then queues the ticket e-mail.
    assert len(queued) == 2 and queued[0].args[0] == booking["id"]
    assert response.json()["data"] == {  # the status when the confirm committed
        "id": booking["id"],
        "booking_reference": booking["booking_reference"],
        "status": "confirmed",
        "documents": [],
    }
    ticketed = read(agency, booking["id"])
    assert ticketed["status"] == "ticketed"
    assert {d["passenger_id"] for d in ticketed["documents"]} == {
        p["id"] for p in offer["passengers"]
    }
    for document in ticketed["documents"]:
        assert document["type"] == "electronic_ticket"
        assert len(document["unique_identifier"]) == 13
    cost = Decimal(offer["base_cost_brl"])
    assert ledger(agency, booking["id"]) == [("debit", "booking", cost, after(agency, cost))]
    assert_wallet(agency, spent=cost)  # no longer pending
    assert booking_events(agency, booking["id"]) == [CREATED, CONFIRMED, TICKETED]
    assert event_documents(booking["id"]) == {
        "booking.created": [],
        "booking.confirmed": [],
        "booking.ticketed": ticketed["documents"],
    }
    assert wallet_events(agency, booking["id"]) == [("wallet.debit", "booking", f"{cost:.2f}")]

    before = footprint()
    again = confirm(agency.client, booking["id"], payment_of(offer))
    refused(agency, again, 409, "Booking already confirmed")  # a ticketed booking
    assert footprint() == before


def test_confirm_of_a_confirmed_booking_is_409_and_debits_once(agency):
    offer = pick(search(agency.client), hold=True)
    booking = created(agency.client, offer)
    first = confirm(agency.client, booking["id"], payment_of(offer))  # the task is not run here
    assert first.json()["data"]["status"] == "confirmed"
    before = footprint()
    again = confirm(agency.client, booking["id"], payment_of(offer))
    assert refused(agency, again, 409, "Booking already confirmed")["code"] == (
        "booking_already_confirmed"
    )
    assert footprint() == before
    assert read(agency, booking["id"])["status"] == "confirmed"
    cost = Decimal(offer["base_cost_brl"])
    assert ledger(agency, booking["id"]) == [("debit", "booking", cost, after(agency, cost))]
    assert booking_events(agency, booking["id"]) == [CREATED, CONFIRMED]


@pytest.mark.parametrize("wrong", ["amount", "currency"])
def test_confirm_with_a_wrong_payment_is_a_mismatch(agency, wrong):
    offer = pick(search(agency.client), hold=True, currency="BRL")
    booking = created(agency.client, offer)
    change = {
        "amount": {"amount": f"{Decimal(offer['total_amount']) + CENT}"},
        "currency": {"currency": "EUR"},
    }[wrong]
    before = footprint()
    error = refused(
        agency,
        confirm(agency.client, booking["id"], payment_of(offer, **change)),
        400,
        "Payment amount mismatch",
    )
    assert error["details"] == {
        "expected_amount": [offer["total_amount"]],
        "expected_currency": [offer["total_currency"]],
    }
    assert footprint() == before  # still pending: no debit, no event
    assert_wallet(agency, spent=ZERO, pending=Decimal(offer["base_cost_brl"]))


def test_confirm_without_enough_balance_is_422_and_the_hold_stays_pending(agency):
    offer = pick(search(agency.client, "LIS"), hold=True, cost_above=BALANCE)
    booking = created(agency.client, offer)  # a hold needs no balance
    before = footprint()
    response = confirm(agency.client, booking["id"], payment_of(offer))
    assert refused(agency, response, 422, "Insufficient balance")["code"] == (
        "insufficient_balance"
    )
    assert footprint() == before  # no ledger row, no event, still pending
    assert read(agency, booking["id"])["status"] == "pending"


def test_spending_drains_the_live_wallet_only(agency):
    """After an instant booking of 4500+ BRL, a hold of more than what is left cannot be
    confirmed in live mode; the test wallet still holds its constant 5000.00."""
    big = pick(search(agency.client, "LIS"), cost_above=Decimal("4500"), cost_below=BALANCE)
    spent = Decimal(big["base_cost_brl"])
    assert created(agency.client, big, "instant")["status"] == "ticketed"
    offer = pick(search(agency.client), hold=True, cost_above=BALANCE - spent)
    booking = created(agency.client, offer)
    response = confirm(agency.client, booking["id"], payment_of(offer))
    if agency.live:
        refused(agency, response, 422, "Insufficient balance")
        assert read(agency, booking["id"])["status"] == "pending"
        assert ledger(agency, booking["id"]) == []
        assert_wallet(agency, spent=spent, pending=Decimal(offer["base_cost_brl"]))
    else:
        assert response.status_code == 200 and response.json()["data"]["status"] == "confirmed"
        assert_wallet(agency, spent=spent)  # still 5000.00


def test_confirm_after_the_payment_deadline_is_409(agency):
    offer = pick(search(agency.client), hold=True)
    booking = created(agency.client, offer)
    deadline = Booking.objects.get(pk=booking["id"]).payment_required_by
    with time_machine.travel(deadline + timedelta(minutes=1), tick=False):
        before = footprint()
        late = confirm(agency.client, booking["id"], payment_of(offer))  # not yet swept
        error = refused(agency, late, 409, "The payment deadline has passed; search again")
        assert error["code"] == "booking_not_payable"
        assert footprint() == before
        assert expire_holds.delay().get() == 1
        before = footprint()
        expired = confirm(agency.client, booking["id"], payment_of(offer))
        error = refused(agency, expired, 409, "Only a pending booking can be confirmed")
        assert (error["code"], error["details"]) == ("booking_not_payable", {"status": ["expired"]})
        assert footprint() == before


def test_confirm_of_a_cancelled_booking_is_409(agency):
    offer = pick(search(agency.client), hold=True)
    booking = created(agency.client, offer)
    assert cancel(agency.client, booking["id"]).status_code == 200
    before = footprint()
    response = confirm(agency.client, booking["id"], payment_of(offer))
    refused(agency, response, 409, "Booking already cancelled")
    assert footprint() == before


def test_confirmed_hold_whose_issuance_fails_is_failed_and_refunded(
    agency, django_capture_on_commit_callbacks
):
    offer = pick(search(agency.client), hold=True)
    people = travellers(offer, family="Issuancefail")
    booking = created(agency.client, offer, people=people)  # the sandbox accepts the hold
    assert booking["status"] == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        assert confirm(agency.client, booking["id"], payment_of(offer)).status_code == 200
    assert read(agency, booking["id"])["status"] == "failed"
    cost = Decimal(offer["base_cost_brl"])
    assert ledger(agency, booking["id"]) == [
        ("credit", "refund", cost, BALANCE),
        ("debit", "booking", cost, after(agency, cost)),
    ]
    assert_wallet(agency, spent=ZERO)
    assert booking_events(agency, booking["id"]) == [
        CREATED,
        CONFIRMED,
        ("booking.failed", "failed", "confirmed"),
    ]
    # A failed booking can be neither paid again nor cancelled.
    before = footprint()
    again = confirm(agency.client, booking["id"], payment_of(offer))
    assert refused(agency, again, 409, "Only a pending booking can be confirmed")["details"] == {
        "status": ["failed"]
    }
    cancelled = cancel(agency.client, booking["id"])
    error = refused(agency, cancelled, 409, "This booking can no longer be cancelled")
    assert (error["code"], error["details"]) == ("booking_not_cancellable", {"status": ["failed"]})
    assert footprint() == before
    assert ledger_problems() == []


def test_unknown_other_teams_and_other_modes_bookings_are_404(agency, team_keys, other_team_keys):
    other_team_client = api_client(
        other_team_keys.live_key if agency.live else other_team_keys.test_key
    )
    theirs = created(other_team_client, pick(search(other_team_client), hold=True))
    other_mode = other_mode_client(agency, team_keys)
    mine_in_the_other_mode = created(other_mode, pick(search(other_mode), hold=True))
    offer = pick(search(agency.client), hold=True)
    before = footprint()
    for booking_id in ("ord_01unknown", theirs["id"], mine_in_the_other_mode["id"]):
        path = f"{BOOKINGS}/{booking_id}"
        refused(agency, agency.client.get(path), 404, "Booking not found")
        refused(
            agency, confirm(agency.client, booking_id, payment_of(offer)), 404, "Booking not found"
        )
        refused(agency, cancel(agency.client, booking_id), 404, "Booking not found")
    assert footprint() == before  # both still pending


# --- Cancel ----------------------------------------------------------------------------------


def test_cancel_pending_costs_nothing_and_cancelling_again_is_409(agency):
    offer = pick(search(agency.client), hold=True)
    booking = created(agency.client, offer)
    response = cancel(agency.client, booking["id"])
    assert response.status_code == 200
    assert ("_meta" in response.json()) is not agency.live
    assert spec_cancel(response.json()["data"]) == {
        "id": booking["id"],
        "status": "cancelled",
        "refund": {
            "amount": "0.00",
            "currency": offer["total_currency"],
            "penalty_amount": None,
            "penalty_currency": None,
        },
    }
    assert read(agency, booking["id"])["status"] == "cancelled"
    assert ledger(agency, booking["id"]) == []
    assert_wallet(agency, spent=ZERO)  # no longer pending
    assert booking_events(agency, booking["id"]) == [
        CREATED,
        ("booking.cancelled", "cancelled", "pending"),
    ]
    before = footprint()
    again = cancel(agency.client, booking["id"])
    assert refused(agency, again, 409, "Booking already cancelled")["code"] == (
        "booking_already_cancelled"
    )
    assert footprint() == before


def test_cancel_confirmed_before_the_supplier_was_paid_refunds_everything(agency):
    """Debited, but the ticketing task has not paid the supplier yet: the supplier refunds
    nothing (`awaiting_payment`) and the wallet gets back all it was debited."""
    offer = pick(search(agency.client), hold=True, refundable=True, currency="BRL")
    booking = created(agency.client, offer)
    confirmed = confirm(agency.client, booking["id"], payment_of(offer))
    assert confirmed.json()["data"]["status"] == "confirmed"  # the ticketing task is not run
    response = cancel(agency.client, booking["id"])
    assert response.status_code == 200
    assert spec_cancel(response.json()["data"]) == {
        "id": booking["id"],
        "status": "cancelled",
        "refund": {
            "amount": offer["total_amount"],
            "currency": "BRL",
            "penalty_amount": "0.00",
            "penalty_currency": "BRL",
        },
    }
    cost = Decimal(offer["base_cost_brl"])
    refund = response.json()["data"]["refund"]
    assert (refund["refund_to"], refund["wallet_credit_amount"]) == ("awaiting_payment", f"{cost}")
    assert ledger(agency, booking["id"]) == [
        ("credit", "refund", cost, after(agency, ZERO)),
        ("debit", "booking", cost, after(agency, cost)),
    ]
    assert_wallet(agency, spent=ZERO)
    assert booking_events(agency, booking["id"]) == [
        CREATED,
        CONFIRMED,
        ("booking.cancelled", "cancelled", "confirmed"),
    ]
    # The ticketing task, arriving late, leaves the cancelled booking alone.
    assert issue_tickets.delay(booking["id"]).get() == "cancelled"
    assert read(agency, booking["id"])["documents"] == []


def test_cancel_ticketed_refunds_per_conditions_at_the_locked_rate(agency):
    offer = pick(search(agency.client, "EZE"), refundable=True, currency="ARS")
    booking = created(agency.client, offer, "instant")
    assert booking["status"] == "ticketed"
    response = cancel(agency.client, booking["id"])
    assert response.status_code == 200
    condition = refund_condition(offer)
    refund = Decimal(offer["total_amount"]) - Decimal(condition["penalty_amount"])
    assert spec_cancel(response.json()["data"])["refund"] == {
        "amount": f"{refund:.2f}",
        "currency": "ARS",
        "penalty_amount": condition["penalty_amount"],
        "penalty_currency": "ARS",
    }
    cost = Decimal(offer["base_cost_brl"])
    credit = rounded(refund * Decimal(str(offer["exchange_rate_used"])))
    assert ZERO < credit < cost
    assert ledger(agency, booking["id"]) == [
        ("credit", "refund", credit, after(agency, cost - credit)),
        ("debit", "booking", cost, after(agency, cost)),
    ]
    assert_wallet(agency, spent=cost - credit)
    assert booking_events(agency, booking["id"]) == [
        CREATED,
        CONFIRMED,
        TICKETED,
        ("booking.cancelled", "cancelled", "ticketed"),
    ]
    assert ledger_problems() == []


def test_cancel_ticketed_non_refundable_refunds_nothing(agency):
    offer = pick(search(agency.client), refundable=False)
    booking = created(agency.client, offer, "instant")
    assert booking["status"] == "ticketed"
    response = cancel(agency.client, booking["id"])
    # The airline keeps everything: the penalty is the total (docs/after-sale.md).
    assert spec_cancel(response.json()["data"]) == {
        "id": booking["id"],
        "status": "cancelled",
        "refund": {
            "amount": "0.00",
            "currency": offer["total_currency"],
            "penalty_amount": offer["total_amount"],
            "penalty_currency": offer["total_currency"],
        },
    }
    refund = response.json()["data"]["refund"]
    assert (refund["refund_to"], refund["wallet_credit_amount"], refund["transaction_id"]) == (
        "balance",
        "0.00",
        None,
    )
    cost = Decimal(offer["base_cost_brl"])
    assert ledger(agency, booking["id"]) == [("debit", "booking", cost, after(agency, cost))]
    assert_wallet(agency, spent=cost)
    assert booking_events(agency, booking["id"]) == [
        CREATED,
        CONFIRMED,
        TICKETED,
        ("booking.cancelled", "cancelled", "ticketed"),
    ]


def test_cancel_after_departure_is_409(agency):
    offer = pick(search(agency.client), refundable=True)
    booking = created(agency.client, offer, "instant")
    departure = Booking.objects.get(pk=booking["id"]).departing_at
    with time_machine.travel(departure + timedelta(minutes=1), tick=False):
        before = footprint()
        error = refused(
            agency, cancel(agency.client, booking["id"]), 409, "The flight has departed"
        )
        assert (error["code"], error["details"]) == (
            "booking_not_cancellable",
            {"status": ["ticketed"]},
        )
        assert footprint() == before
    with time_machine.travel(departure - timedelta(minutes=1), tick=False):
        assert cancel(agency.client, booking["id"]).json()["data"]["status"] == "cancelled"


def test_a_cancel_refunds_per_the_state_it_finds_under_the_lock(agency):
    """The API and the admin action pass the booking as they read it; a confirm (a debit) that
    lands between that read and the cancel's transaction must still be refunded per the
    refund of a paid booking (here one the supplier was not paid for yet: all of it)."""
    offer = pick(search(agency.client), hold=True, refundable=True, currency="BRL")
    booking = created(agency.client, offer)
    read_while_pending = Booking.objects.get(pk=booking["id"])
    assert confirm(agency.client, booking["id"], payment_of(offer)).status_code == 200
    cancelled, refund = booking_cancel(booking=read_while_pending)
    assert cancelled.status == "cancelled"
    assert {key: refund[key] for key in SPEC_REFUND} == {
        "amount": offer["total_amount"],
        "currency": "BRL",
        "penalty_amount": "0.00",
        "penalty_currency": "BRL",
    }
    cost = Decimal(offer["base_cost_brl"])
    assert ledger(agency, booking["id"]) == [
        ("credit", "refund", cost, after(agency, ZERO)),
        ("debit", "booking", cost, after(agency, cost)),
    ]
    assert booking_events(agency, booking["id"])[-1] == (
        "booking.cancelled",
        "cancelled",
        "confirmed",
    )


def test_a_cancel_that_finds_the_booking_failed_under_the_lock_is_refused(agency):
    offer = pick(search(agency.client), hold=True)
    booking = created(agency.client, offer, people=travellers(offer, family="Issuancefail"))
    assert confirm(agency.client, booking["id"], payment_of(offer)).status_code == 200
    read_while_confirmed = Booking.objects.get(pk=booking["id"])
    assert issue_tickets.delay(booking["id"]).get() == "failed"  # refunded in full
    before = footprint()
    with pytest.raises(BookingNotCancellable) as refused_cancel:
        booking_cancel(booking=read_while_confirmed)
    assert refused_cancel.value.details == {"status": "failed"}
    assert footprint() == before


# --- Expiry ----------------------------------------------------------------------------------


def test_pending_holds_expire_after_their_deadline_and_no_longer_count(agency):
    offer = pick(search(agency.client), hold=True)
    booking = created(agency.client, offer)
    paid_offer = pick(search(agency.client, "CNF"), hold=True)
    paid = created(agency.client, paid_offer)
    assert confirm(agency.client, paid["id"], payment_of(paid_offer)).status_code == 200
    spent = Decimal(paid_offer["base_cost_brl"])
    assert_wallet(agency, spent=spent, pending=Decimal(offer["base_cost_brl"]))
    deadlines = Booking.objects.values_list("payment_required_by", flat=True)
    deadline = Booking.objects.get(pk=booking["id"]).payment_required_by
    with time_machine.travel(deadline - timedelta(minutes=1), tick=False):
        assert expire_holds.delay().get() == 0
    with time_machine.travel(max(deadlines) + timedelta(minutes=1), tick=False):
        assert expire_holds.delay().get() == 1  # the pending hold, not the paid one
        assert expire_holds.delay().get() == 0  # once
        expired = read(agency, booking["id"])
        assert expired["status"] == "expired"
        assert expired["payment_status"]["awaiting_payment"] is False
        assert read(agency, paid["id"])["status"] == "confirmed"
        assert_wallet(agency, spent=spent)  # pending_amount back to 0
    assert ledger(agency, booking["id"]) == []
    assert booking_events(agency, booking["id"]) == [
        CREATED,
        ("booking.expired", "expired", "pending"),
    ]
    expiry = Event.objects.get(type="booking.expired", data_object__id=booking["id"])
    assert expiry.previous_attributes == {"status": "pending"}
    before = footprint()
    error = refused(
        agency, cancel(agency.client, booking["id"]), 409, "This booking can no longer be cancelled"
    )
    assert (error["code"], error["details"]) == ("booking_not_cancellable", {"status": ["expired"]})
    assert footprint() == before


# --- Create errors: each leaves no booking, no ledger row, no event, no client -----------------


def test_an_unknown_other_teams_or_other_modes_offer_is_404(agency, team_keys, other_team_keys):
    other_team_client = api_client(
        other_team_keys.live_key if agency.live else other_team_keys.test_key
    )
    theirs = pick(search(other_team_client), hold=True)
    other_mode = pick(search(other_mode_client(agency, team_keys)), hold=True)
    mine = pick(search(agency.client), hold=True)
    before = footprint()
    for offer in ({**mine, "id": "off_01unknown"}, theirs, other_mode):
        for type in ("hold", "instant"):
            response = create(agency.client, offer, type)
            assert refused(agency, response, 404, "Offer not found")["code"] == "offer_not_found"
    assert footprint() == before


def test_an_expired_offer_is_400(agency):
    offer = pick(search(agency.client), hold=True)
    expires_at = datetime.fromisoformat(offer["expires_at"])
    with time_machine.travel(expires_at, tick=False):
        before = footprint()
        for type in ("hold", "instant"):
            response = create(agency.client, offer, type)
            assert refused(agency, response, 400, "Offer expired")["code"] == "offer_expired"
        assert footprint() == before
    with time_machine.travel(expires_at - timedelta(seconds=1), tick=False):
        assert create(agency.client, offer).status_code == 201  # until then it is bookable


def test_a_hold_of_an_instant_only_offer_is_400(agency):
    offer = pick(search(agency.client), hold=False)
    before = footprint()
    error = refused(agency, create(agency.client, offer, "hold"), 400, INSTANT_ONLY)
    assert error["code"] == "instant_payment_required"
    assert footprint() == before


@pytest.mark.parametrize(
    "field, value",
    [
        ("born_on", "1990-05-01"),  # an adult's birth date for the child
        ("phone_number", "11987654321"),
        ("family_name", "  "),
        ("gender", "x"),
    ],
)
def test_invalid_passenger_data_names_the_passenger_and_the_field(agency, field, value):
    offer = pick(search(agency.client, children=1), hold=True)
    adult, child = travellers(offer)
    before = footprint()
    response = create(agency.client, offer, "instant", people=[adult, {**child, field: value}])
    error = refused(agency, response, 400, "Invalid passenger data")
    assert error["code"] == "invalid_passenger_data"
    assert list(error["details"]) == [f"passengers[1].{field}"]
    assert footprint() == before


def test_an_international_booking_without_a_passport_is_400(agency):
    offer = pick(search(agency.client, "EZE", children=1), hold=True, cost_below=BALANCE)
    adult, child = travellers(offer)
    without = {k: v for k, v in child.items() if k != "identity_documents"}
    before = footprint()
    for type in ("hold", "instant"):
        response = create(agency.client, offer, type, people=[adult, without])
        error = refused(agency, response, 400, "Passport required")
        assert list(error["details"]) == ["passengers[1].identity_documents"]
    # A passport that expires before the flight is no passport.
    expired = {**PASSPORT, "expires_on": "2027-01-10"}  # the flight is on 2027-01-15
    with_expired = {**child, "identity_documents": [expired]}
    response = create(agency.client, offer, people=[adult, with_expired])
    refused(agency, response, 400, "Passport required")
    assert footprint() == before
    assert created(agency.client, offer, people=[adult, child])["status"] == "pending"


@pytest.mark.parametrize(
    "payments, message",
    [
        ("amount", "Payment amount mismatch"),
        ("currency", "Payment amount mismatch"),
        ("missing", "Invalid request parameters"),
        ("empty", "Invalid request parameters"),
    ],
)
def test_an_instant_payment_must_match_the_offer(agency, payments, message):
    offer = pick(search(agency.client), currency="BRL")
    body = {
        "amount": [payment_of(offer, amount=f"{Decimal(offer['total_amount']) - CENT}")],
        "currency": [payment_of(offer, currency="USD")],
        "missing": None,
        "empty": [],
    }[payments]
    before = footprint()
    error = refused(agency, create(agency.client, offer, "instant", payments=body), 400, message)
    if message == "Payment amount mismatch":
        assert error["details"] == {
            "expected_amount": [offer["total_amount"]],
            "expected_currency": ["BRL"],
        }
    else:
        assert list(error["details"]) == ["payments"]
    assert footprint() == before


def test_an_instant_booking_without_enough_balance_is_422_and_writes_nothing(agency):
    offer = pick(search(agency.client, "LIS"), cost_above=BALANCE)
    before = footprint()
    response = create(agency.client, offer, "instant")
    assert refused(agency, response, 422, "Insufficient balance")["code"] == "insufficient_balance"
    assert footprint() == before
    assert_wallet(agency, spent=ZERO)


def test_an_offer_is_booked_once_and_the_second_attempt_writes_nothing(agency):
    offer = pick(search(agency.client), hold=True)
    created(agency.client, offer)
    before = footprint()
    for type in ("hold", "instant"):
        response = create(agency.client, offer, type)
        message = "This offer was already booked; search again for a new offer"
        assert refused(agency, response, 409, message)["code"] == "offer_already_booked"
    assert footprint() == before
