from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail

from agencies.services import agency_user_create
from bookings.models import Booking, BookingEmail
from bookings.tasks import send_booking_email, send_payment_reminders
from bookings.tests.helpers import book, holdable
from tests.kit.factories import fund
from tests.kit.passengers import passenger

MONTHS_PT = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
]

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]


def travellers_mail() -> list:
    """What was sent to the travellers, without the agency's own copies."""
    return [m for m in mail.outbox if "Cópia da agência" not in m.subject]


def test_instant_booking_sends_confirmation_and_tickets_once(
    live_client, team, django_capture_on_commit_callbacks
):
    fund(team, "50000.00")
    with django_capture_on_commit_callbacks(execute=True):
        booking = book(live_client, holdable(live_client), type="instant").json()
    subjects = [m.subject for m in mail.outbox]
    ref = booking["booking_reference"]
    assert subjects == [  # Portuguese: the default language of e-mails; in the order of events
        f"Reserva {ref} recebida",
        f"Cópia da agência: Reserva {ref} recebida",
        f"Seus bilhetes eletrônicos da reserva {ref}",
        f"Cópia da agência: Seus bilhetes eletrônicos da reserva {ref}",
    ]
    tickets, agency_copy = mail.outbox[2:]
    assert tickets.to == ["ana@example.com"] and agency_copy.to == [team.notification_email]
    number = booking["documents"][0]["unique_identifier"]
    assert number in tickets.body and number in tickets.alternatives[0][0]
    email = BookingEmail.objects.get(kind="ticket_issued")
    assert send_booking_email.delay(email.pk).get() is False  # a retry sends nothing
    assert len(mail.outbox) == 4


def test_a_paid_hold_ticketed_gets_only_the_tickets_email(
    live_client, team, django_capture_on_commit_callbacks
):
    """Ticketing queues the confirmation and the tickets together (`emails_queue`); a hold had
    its confirmation when it was made, so only the tickets are queued and sent then."""
    from bookings.services.recording import record_ticketed
    from flights.suppliers.base import SupplierOrder, TicketDocument

    with django_capture_on_commit_callbacks(execute=True):
        held = book(live_client, holdable(live_client), type="hold").json()
    assert [m.subject for m in travellers_mail()] == [
        f"Reserva {held['booking_reference']} recebida"
    ]
    booking = Booking.objects.get(pk=held["id"])
    passenger = booking.passengers.get()
    order = SupplierOrder(
        supplier_order_id=booking.supplier_order_id,
        booking_reference=booking.booking_reference,
        documents=(TicketDocument(passenger.supplier_passenger_id, "0752300000001"),),
        payment_required_by=None,
        price_guarantee_expires_at=None,
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        record_ticketed(booking, order)
    assert len(callbacks) == 1  # the tickets' task only
    kinds = BookingEmail.objects.filter(booking=booking).order_by("pk")
    assert list(kinds.values_list("kind", flat=True)) == ["booking_created", "ticket_issued"]
    assert len(travellers_mail()) == 2 and "bilhetes" in travellers_mail()[1].subject


def test_test_mode_emails_say_so(test_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        book(test_client, holdable(test_client))
    [message] = travellers_mail()
    assert message.subject.startswith("[TESTE] ") and "MODO DE TESTE" in message.body


def test_cancellation_email(live_client, team, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        booking = book(live_client, holdable(live_client)).json()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        live_client.delete(f"/api/v1/bookings/{booking['id']}")
    assert [m.subject for m in travellers_mail()] == [
        f"Reserva {booking['booking_reference']} cancelada"
    ]


def test_payment_reminder_12_hours_before_the_deadline_once(
    live_client, team, django_capture_on_commit_callbacks
):
    offer = holdable(live_client)
    booking = book(live_client, offer, people=[passenger(offer["passengers"][0]["id"])]).json()
    deadline = Booking.objects.get(pk=booking["id"]).payment_required_by
    with time_machine.travel(deadline - timedelta(hours=13), tick=False):
        assert send_payment_reminders.delay().get() == 0
    with (
        time_machine.travel(deadline - timedelta(hours=11), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert send_payment_reminders.delay().get() == 1
        assert send_payment_reminders.delay().get() == 0
    [reminder] = [m for m in mail.outbox if "Pagamento pendente" in m.subject]
    assert reminder.to == ["ana@example.com"]  # the customer only
    # The deadline in São Paulo time, and saying so (the API wrote it in UTC).
    local = deadline.astimezone(ZoneInfo("America/Sao_Paulo"))
    month = MONTHS_PT[local.month - 1]
    written = f"{local.day} de {month} de {local.year}, {local:%H:%M} (horário de Brasília)"
    assert f"até {written}" in reminder.body and "ainda não foi paga" in reminder.body
    assert f"até {written}" in reminder.alternatives[0][0]


# --- Test mode: the team's own addresses only ---------------------------------------------------


@pytest.fixture
def team_addresses(team, team_owner, other_team):
    """The team's notification address (its owner's), a second active panel user, and people
    who must never receive its test e-mails: an inactive user and another team's user."""
    agency = team
    agency_user_create(team=agency, email="Bia@Alpha.example", role="agent")
    gone = agency_user_create(team=agency, email="gone@alpha.example", role="agent")
    gone.is_active = False
    gone.save()
    agency.notification_email = "reservas@alpha.example"
    agency.save()
    return ["reservas@alpha.example", team_owner.email, "bia@alpha.example"]


def test_test_mode_emails_go_only_to_the_teams_own_addresses(
    test_client, team_addresses, django_capture_on_commit_callbacks
):
    offer = holdable(test_client)
    with django_capture_on_commit_callbacks(execute=True):
        booking = book(test_client, offer).json()
    with django_capture_on_commit_callbacks(execute=True):
        test_client.delete(f"/api/v1/bookings/{booking['id']}")

    assert [m.subject.split()[0] for m in mail.outbox] == ["[TESTE]"] * 4
    for message in travellers_mail():  # what the travellers would read: to the team itself
        assert message.to == team_addresses  # not ana@example.com, the passenger
        assert "MODO DE TESTE" in message.body and "MODO DE TESTE" in message.alternatives[0][0]
    for message in mail.outbox[1::2]:  # and the agency's own copy, as in live mode
        assert "Cópia da agência" in message.subject and message.to == ["reservas@alpha.example"]


def test_a_test_mode_reminder_goes_to_the_team_instead_of_the_customer(
    test_client, team_addresses, django_capture_on_commit_callbacks
):
    offer = holdable(test_client)
    booking = book(test_client, offer, people=[passenger(offer["passengers"][0]["id"])]).json()
    deadline = Booking.objects.get(pk=booking["id"]).payment_required_by
    with (
        time_machine.travel(deadline - timedelta(hours=11), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert send_payment_reminders.delay().get() == 1
    [reminder] = [m for m in mail.outbox if "Pagamento pendente" in m.subject]
    assert reminder.subject.startswith("[TESTE] ") and reminder.to == team_addresses


def test_live_emails_still_reach_the_passengers(
    live_client, team, team_addresses, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        book(live_client, holdable(live_client))
    [message, agency_copy] = mail.outbox
    assert message.to == ["ana@example.com"] and agency_copy.to == ["reservas@alpha.example"]
    assert "TESTE" not in message.subject and "MODO DE TESTE" not in message.body
