"""Uncertain supplier answers never settle money: the booking keeps its money, waits with
"supplier outcome unknown", and the reconcile job settles it exactly as the first answer would
have (ticketed or held), or fails it with a full refund once the order is certainly absent.
Driven through the API with the sandbox supplier's scenarios (docs/sandbox.md)."""

from datetime import timedelta

import pytest
from django.core import mail

from bookings.models import Booking
from bookings.services import (
    CHECK_LEASE,
    booking_check_with_supplier,
    booking_outcome_check,
    bookings_outcomes_reconcile,
)
from bookings.tests.helpers import BOOKINGS, book, holdable, instant, money
from flights.suppliers import sandbox
from tests.kit.clock import NOW
from tests.kit.factories import fund
from tests.kit.passengers import passenger
from wallet.ledger_check import ledger_problems
from webhooks.models import Event

# Real commits: the ticketing task and the e-mails run when the change commits, as in production.
pytestmark = pytest.mark.django_db(transaction=True)
LIFECYCLE = ["booking.created", "booking.confirmed", "booking.ticketed", "booking.failed"]


@pytest.fixture
def clock(settings, frozen_time):
    settings.FLIGHTS_LIVE_SANDBOX = True  # the sandbox answers live keys in these tests
    return frozen_time


@pytest.fixture
def client(live_client, team, clock):
    fund(team, "10000.00")
    return live_client


def hold(client, family_name):
    offer = holdable(client)
    return book(
        client, offer, people=[passenger(offer["passengers"][0]["id"], family_name=family_name)]
    )


def confirm(client, booking):
    payment = {
        "type": "balance",
        "amount": booking["total_amount"],
        "currency": booking["total_currency"],
    }
    return client.put(f"{BOOKINGS}/{booking['id']}/confirm", {"payment": payment}, format="json")


def event_types(booking_id):
    """The booking's lifecycle events in the order they happened (several share an instant)."""
    events = Event.objects.filter(data_object__id=booking_id, type__in=LIFECYCLE)
    return [e.type for e in sorted(events, key=lambda e: (e.created_at, LIFECYCLE.index(e.type)))]


def reconcile(clock, seconds=0):
    clock.shift(seconds)
    return bookings_outcomes_reconcile()


def test_an_instant_order_whose_answer_was_lost_is_found_and_ticketed(client, clock):
    response = instant(client, "Answerlost")

    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "confirmed" and body["documents"] == []  # paid, awaiting issuance
    booking = Booking.objects.get(pk=body["id"])
    assert booking.outcome_unknown_since == NOW and "outcome" in booking.outcome_note
    assert money(booking.id) == ([booking.base_cost_brl], [])
    assert event_types(booking.id) == ["booking.created", "booking.confirmed"]
    assert mail.outbox == []  # nothing to tell before the airline's answer is known
    refused = client.delete(f"{BOOKINGS}/{booking.id}")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "booking_outcome_unknown"

    assert reconcile(clock, 30) == [booking.id]

    read = client.get(f"{BOOKINGS}/{booking.id}").json()
    assert read["status"] == "ticketed" and len(read["documents"]) == 1
    assert len(read["booking_reference"]) == 6
    booking.refresh_from_db()
    assert booking.outcome_unknown_since is None
    assert money(booking.id) == ([booking.base_cost_brl], [])  # one debit, no refund
    assert event_types(booking.id) == ["booking.created", "booking.confirmed", "booking.ticketed"]
    # Portuguese, the e-mails' default language: "Reserva … recebida", "Seus bilhetes …", each
    # followed by the agency's own copy.
    assert [m.subject.split()[0] for m in mail.outbox] == ["Reserva", "Cópia", "Seus", "Cópia"]
    assert ledger_problems() == []
    assert reconcile(clock, 30) == []  # settled: nothing left to ask


def test_nothing_made_and_a_5xx_is_failed_and_refunded_after_the_grace_period(
    client, clock, settings
):
    body = instant(client, "Supplierdown").json()
    booking = Booking.objects.get(pk=body["id"])
    assert body["status"] == "confirmed"

    reconcile(clock, 30)
    booking.refresh_from_db()
    assert booking.status == "confirmed" and booking.outcome_checked_at is not None
    assert money(booking.id) == ([booking.base_cost_brl], [])  # absent, but not yet certain

    reconcile(clock, settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)

    booking.refresh_from_db()
    assert booking.status == "failed" and booking.outcome_unknown_since is None
    assert booking.failure_reason.startswith("supplier_order_absent")
    assert money(booking.id) == ([booking.base_cost_brl], [booking.base_cost_brl])
    assert event_types(booking.id) == ["booking.created", "booking.confirmed", "booking.failed"]
    [failure] = mail.outbox
    assert failure.to == [booking.team.notification_email]  # the agency, not the traveller
    assert "falhou" in failure.subject and "reembolsado integralmente" in failure.body
    assert ledger_problems() == []
    reconcile(clock, settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)
    assert money(booking.id)[1] == [booking.base_cost_brl]  # refunded once, whatever repeats


def test_an_order_pending_at_the_airline_is_never_refunded_and_is_ticketed_later(
    client, clock, settings
):
    settings.SUPPLIER_UNKNOWN_GRACE_SECONDS = 10  # shorter than the airline's delay
    body = instant(client, "Orderpending").json()
    booking = Booking.objects.get(pk=body["id"])

    reconcile(clock, 30)  # the airline has it, paid, tickets not issued yet
    booking.refresh_from_db()
    assert booking.status == "confirmed" and "not issued" in booking.outcome_note
    assert money(booking.id)[1] == []  # paid at the airline: never refunded from here

    reconcile(clock, sandbox.ORDER_PENDING_SECONDS)

    booking.refresh_from_db()
    assert booking.status == "ticketed" and booking.documents.count() == 1
    assert money(booking.id) == ([booking.base_cost_brl], [])
    assert ledger_problems() == []


def test_a_hold_whose_answer_was_lost_stays_pending_then_is_held(client, clock):
    response = hold(client, "Holdlost")

    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "pending" and body["booking_reference"] == ""
    refused = confirm(client, body)
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "booking_outcome_unknown"
    assert event_types(body["id"]) == [] and mail.outbox == []

    reconcile(clock, 30)

    read = client.get(f"{BOOKINGS}/{body['id']}").json()
    assert read["status"] == "pending" and len(read["booking_reference"]) == 6
    assert read["payment_status"]["awaiting_payment"] is True
    assert event_types(body["id"]) == ["booking.created"]
    assert len(mail.outbox) == 2  # the booking confirmation, as for any hold, and its copy
    assert money(body["id"]) == ([], [])
    assert confirm(client, read).status_code == 200  # now it can be paid (and is ticketed)
    assert client.get(f"{BOOKINGS}/{body['id']}").json()["status"] == "ticketed"


def test_a_hold_never_made_fails_without_moving_money(client, clock, settings, monkeypatch):
    """A hold whose creation went unanswered and that the airline never made."""
    real = sandbox.SandboxSupplier.create_order

    def unanswered(self, **kwargs):  # the supplier's answer: a 503, nothing made
        raise sandbox.SupplierOutcomeUnknown("503 from the supplier")

    monkeypatch.setattr(sandbox.SandboxSupplier, "create_order", unanswered)
    body = hold(client, "Souza").json()
    monkeypatch.setattr(sandbox.SandboxSupplier, "create_order", real)

    reconcile(clock, settings.SUPPLIER_UNKNOWN_GRACE_SECONDS + 1)

    booking = Booking.objects.get(pk=body["id"])
    assert booking.status == "failed"
    assert money(booking.id) == ([], [])  # a hold was never debited: nothing to refund
    assert event_types(booking.id) == ["booking.created", "booking.failed"]


@pytest.mark.parametrize(
    ("family_name", "end"), [("Answerlost", "ticketed"), ("Supplierdown", "failed")]
)
def test_paying_a_hold_with_an_uncertain_answer(client, clock, settings, family_name, end):
    body = hold(client, family_name).json()
    confirmed = confirm(client, body)
    assert confirmed.status_code == 200  # the ticketing task met the uncertain answer
    booking = Booking.objects.get(pk=body["id"])
    assert booking.status == "confirmed" and booking.outcome_unknown_since is not None
    assert money(booking.id) == ([booking.base_cost_brl], [])

    reconcile(clock, 30)
    reconcile(clock, settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)

    booking.refresh_from_db()
    assert booking.status == end and booking.outcome_unknown_since is None
    refunds = [booking.base_cost_brl] if end == "failed" else []
    assert money(booking.id) == ([booking.base_cost_brl], refunds)
    assert ledger_problems() == []


def test_one_check_at_a_time_per_booking(client, clock):
    booking = Booking.objects.get(pk=instant(client, "Answerlost").json()["id"])
    Booking.objects.filter(pk=booking.pk).update(outcome_check_lease_until=NOW + CHECK_LEASE)

    assert booking_outcome_check(booking_id=booking.pk) == "busy"
    assert bookings_outcomes_reconcile() == []  # leased: not queued either
    clock.shift(CHECK_LEASE + timedelta(seconds=1))  # a check that died lets go after its lease
    assert booking_outcome_check(booking_id=booking.pk) == "ticketed"
    assert booking_outcome_check(booking_id=booking.pk) == "settled"


def test_a_supplier_that_cannot_answer_never_settles_money(client, clock, settings, monkeypatch):
    booking = Booking.objects.get(pk=instant(client, "Supplierdown").json()["id"])

    def unreachable(self, **kwargs):
        raise sandbox.SupplierError("timeout", code="supplier_unavailable")

    monkeypatch.setattr(sandbox.SandboxSupplier, "find_order", unreachable)
    clock.shift(settings.SUPPLIER_UNKNOWN_GRACE_SECONDS * 3)

    assert booking_outcome_check(booking_id=booking.pk) == "unknown"
    booking.refresh_from_db()
    assert booking.status == "confirmed" and "check failed" in booking.outcome_note
    assert money(booking.id)[1] == []


def test_support_checks_now_a_booking_left_by_a_request_that_died(client, clock, settings):
    """A pending instant booking with its debit and no order (the process died before the
    supplier call): support's action marks it unknown and asks the supplier at once."""
    booking = Booking.objects.get(pk=instant(client, "Souza").json()["id"])
    Booking.objects.filter(pk=booking.pk).update(
        status="pending", supplier_order_id="", booking_reference=""
    )
    booking.documents.all().delete()
    clock.shift(settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT.total_seconds() + 1)

    # The sandbox airline has the order of this booking id: it is recorded, not ordered again.
    assert booking_check_with_supplier(booking=Booking.objects.get(pk=booking.pk)) == "ticketed"
    assert money(booking.id) == ([booking.base_cost_brl], [])


# --- The panel: support's worklist -----------------------------------------------------------


def test_support_sees_what_needs_attention_and_checks_with_the_supplier(
    client, team_owner, clock, settings
):
    from django.test import Client as Browser
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory

    waiting = Booking.objects.get(pk=instant(client, "Answerlost").json()["id"])
    fine = Booking.objects.get(pk=instant(client, "Souza").json()["id"])
    changelist = reverse("admin:bookings_booking_changelist")
    support = Browser()
    support.force_login(SupportUserFactory())

    assert waiting.pk not in support.get(changelist + "?attention=yes").content.decode()
    clock.shift(settings.SUPPLIER_UNKNOWN_GRACE_SECONDS + 1)  # unknown for too long now
    page = support.get(changelist + "?attention=yes").content.decode()
    assert waiting.pk in page and fine.pk not in page
    assert "Resultado do fornecedor desconhecido" in page  # the panel is Portuguese by default

    # Agency users cannot run the check (it talks to the supplier for support).
    agency = Browser()
    agency.force_login(team_owner)
    agency_page = agency.get(changelist).content.decode()
    assert "check_with_supplier" not in agency_page and waiting.pk in agency_page
    assert "attention=yes" not in agency_page  # the worklist filter is support's

    done = support.post(
        changelist,
        {"action": "check_with_supplier", "_selected_action": [waiting.pk]},
        follow=True,
    )
    shown = [str(m) for m in done.context["messages"]]
    waiting.refresh_from_db()
    assert f"{waiting.booking_reference}: bilhetes emitidos, agora Emitida" in shown, shown
    assert waiting.status == "ticketed"
    assert waiting.pk not in support.get(changelist + "?attention=yes").content.decode()
