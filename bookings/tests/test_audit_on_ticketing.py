"""Ticketing a booking writes the audit entry django-auditlog writes for any save of it, diffed
against the row read under the booking's lock rather than read once more
(`_save_audited`, docs/performance.md, "Instant bookings"): same content, one read less."""

import pytest
from auditlog.context import disable_auditlog
from auditlog.diff import model_instance_diff
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bookings.models import Booking
from bookings.services.recording import record_ticketed
from bookings.tests.helpers import book, holdable
from core.audit import entries_for
from core.models import AuditEntry
from flights.suppliers.base import SupplierOrder, TicketDocument

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_sandbox")]


def a_hold(client) -> Booking:
    response = book(client, holdable(client), type="hold")
    assert response.status_code == 201, response.content[:500]
    return Booking.objects.get(pk=response.json()["id"])


def tickets_for(booking: Booking) -> SupplierOrder:
    passenger = booking.passengers.get()
    return SupplierOrder(
        supplier_order_id=booking.supplier_order_id,
        booking_reference="TKT123",
        documents=(
            TicketDocument(
                supplier_passenger_id=passenger.supplier_passenger_id or passenger.passenger_id,
                unique_identifier="0752300000001",
            ),
        ),
        payment_required_by=None,
        price_guarantee_expires_at=None,
    )


def test_the_entry_is_auditlogs_diff_of_the_row_before_and_after(live_client, team):
    booking = a_hold(live_client)
    before = Booking.objects.get(pk=booking.pk)
    entries = entries_for(booking).count()
    with CaptureQueriesContext(connection) as captured:
        ticketed = record_ticketed(booking, tickets_for(booking))
    assert ticketed.status == Booking.Status.TICKETED
    after = Booking.objects.get(pk=booking.pk)

    assert entries_for(booking).count() == entries + 1
    entry = entries_for(booking).first()
    assert entry.action == AuditEntry.Action.UPDATE
    expected = model_instance_diff(before, after)  # what auditlog's own receiver computes
    assert set(expected) >= {"status", "booking_reference", "ticketed_at", "confirmed_at"}
    assert entry.changes == {field: list(values) for field, values in expected.items()}
    assert entry.additional_data == {"team_id": team.pk}
    assert entry.object_repr == str(after)
    # The booking is read once (under its lock), not again for the entry.
    reads = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    assert sum('FROM "bookings_booking"' in sql for sql in reads) == 1


def test_no_entry_while_auditlog_is_switched_off(live_client):
    booking = a_hold(live_client)
    entries = entries_for(booking).count()
    with disable_auditlog():  # as a panel action does, which writes its own entry
        assert record_ticketed(booking, tickets_for(booking)).status == Booking.Status.TICKETED
    assert entries_for(booking).count() == entries
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.TICKETED
