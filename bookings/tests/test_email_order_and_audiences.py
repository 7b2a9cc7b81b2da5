"""Who reads which booking e-mail, and in which order (docs/emails.md): the travellers get
theirs under the agency's name, without the agency's costs; the agency gets its own, from the
service, with the booking's panel link and the costs; and a booking's e-mails go out in the
order of the events that queued them, whichever task runs first."""

import threading
from decimal import Decimal

import pytest
from django.core import mail
from django.db import connection
from djmoney.money import Money

from bookings.models import Booking, BookingEmail
from bookings.tasks import send_booking_email
from bookings.tests.helpers import book, holdable
from core.money import money_display
from tests.kit.marks import needs_postgresql

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

AGENCY_EMAIL = "reservas@solemar.example"


@pytest.fixture
def agency(team, settings):
    settings.SERVICE_EMAIL_ADDRESS = "reservas@servico.example"
    settings.SUPPORT_EMAIL_ADDRESS = "suporte@servico.example"
    settings.PUBLIC_BASE_URL = "https://painel.servico.example"
    team.name, team.notification_email = "Agência Sol & Mar", AGENCY_EMAIL
    team.markup_percent, team.fee = Decimal("10.00"), Money("25.00", "BRL")  # price above cost
    team.save()
    return team


def test_the_travellers_and_the_agency_each_get_their_own_email(
    live_client, agency, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        data = book(live_client, holdable(live_client)).json()
    booking = Booking.objects.get(pk=data["id"])
    ref = booking.booking_reference
    travellers, own = mail.outbox

    assert travellers.to == ["ana@example.com"]  # the agency is neither in to, cc nor bcc
    assert travellers.cc == [] and travellers.bcc == []
    assert travellers.subject == f"Reserva {ref} recebida"
    assert (
        travellers.from_email == "=?utf-8?q?Ag=C3=AAncia_Sol_=26_Mar?= <reservas@servico.example>"
    )
    assert travellers.reply_to == [AGENCY_EMAIL]

    assert own.to == [AGENCY_EMAIL] and own.cc == [] and own.bcc == []
    assert own.subject == f"Cópia da agência: Reserva {ref} recebida"
    assert own.from_email == "=?utf-8?q?Painel_da_Ag=C3=AAncia?= <reservas@servico.example>"
    assert own.reply_to == ["suporte@servico.example"]

    panel = f"https://painel.servico.example/admin/bookings/booking/{booking.pk}/change/"
    costs = [
        f"Tarifa da companhia: {money_display(booking.total_amount, booking.total_currency)}",
        f"Custo debitado da sua carteira: {money_display(booking.base_cost_brl, 'BRL')}",
        f"Sua margem: {money_display(booking.markup_amount, 'BRL')}",
        f"Sua taxa: {money_display(booking.fee_amount, 'BRL')}",
    ]
    price = f"Preço ao cliente: {money_display(booking.client_amount, 'BRL')}"
    for body in (own.body, own.alternatives[0][0]):
        assert panel in body and "PARA A AGÊNCIA" in body
        assert all(cost in body for cost in costs), body
        assert "receberam o e-mail deles, sem estes custos, em ana@example.com" in body
        assert "Para falar com o suporte sobre esta reserva, responda a este e-mail." in body
    assert price in own.body
    for body in (travellers.body, travellers.alternatives[0][0]):  # nothing of the agency's
        assert panel not in body and "/admin/" not in body and "PARA A AGÊNCIA" not in body
        assert booking.total_currency not in body
        assert money_display(booking.base_cost_brl, "BRL") not in body
        assert "Sua margem" not in body and "Sua taxa" not in body


def test_a_reminder_goes_to_the_customer_only_and_a_failure_to_the_agency_only(
    live_client, agency, django_capture_on_commit_callbacks
):
    from bookings.emails import email_queue

    with django_capture_on_commit_callbacks(execute=True):
        data = book(live_client, holdable(live_client)).json()
    booking = Booking.objects.get(pk=data["id"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        email_queue(booking=booking, kind=BookingEmail.Kind.REMINDER)
        email_queue(booking=booking, kind=BookingEmail.Kind.FAILED)
    reminder, failed = mail.outbox
    assert reminder.to == ["ana@example.com"] and "Pagamento pendente" in reminder.subject
    assert failed.to == [AGENCY_EMAIL]
    assert failed.subject == f"A reserva {booking.booking_reference} falhou: nada foi emitido"
    assert "Tarifa da companhia" in failed.body and "receberam" not in failed.body


def test_the_later_emails_task_running_first_still_sends_the_earlier_first(
    live_client, agency, django_capture_on_commit_callbacks
):
    """A hold's "received" and then its "tickets issued": two tasks the workers may run in
    any order (concurrency, a retry, a lost message). The later one runs first here."""
    from bookings.services.recording import record_ticketed
    from flights.suppliers.base import SupplierOrder, TicketDocument

    with django_capture_on_commit_callbacks(execute=False) as created_tasks:
        data = book(live_client, holdable(live_client), type="hold").json()
    booking = Booking.objects.get(pk=data["id"])
    passenger = booking.passengers.get()
    order = SupplierOrder(
        supplier_order_id=booking.supplier_order_id,
        booking_reference=booking.booking_reference,
        documents=(TicketDocument(passenger.supplier_passenger_id, "0752300000001"),),
        payment_required_by=None,
        price_guarantee_expires_at=None,
    )
    with django_capture_on_commit_callbacks(execute=False):
        record_ticketed(booking, order)
    created = BookingEmail.objects.get(booking=booking, kind="booking_created")
    ticketed = BookingEmail.objects.get(booking=booking, kind="ticket_issued")
    assert mail.outbox == [] and created_tasks  # nothing sent yet

    assert send_booking_email.delay(ticketed.pk).get() is True
    ref = booking.booking_reference
    assert [m.subject for m in mail.outbox if m.to == ["ana@example.com"]] == [
        f"Reserva {ref} recebida",
        f"Seus bilhetes eletrônicos da reserva {ref}",
    ]
    assert send_booking_email.delay(created.pk).get() is False  # already sent, in its turn
    assert len(mail.outbox) == 4


def test_an_email_queued_again_goes_after_what_was_queued_since(
    live_client, agency, django_capture_on_commit_callbacks, frozen_time
):
    """A kind sent on each change (flights changed) queued again after the tickets: its row
    is older, but it goes out after them."""
    from bookings.emails import email_queue, email_queue_each_time

    with django_capture_on_commit_callbacks(execute=True):
        data = book(live_client, holdable(live_client)).json()
    booking = Booking.objects.get(pk=data["id"])
    with django_capture_on_commit_callbacks(execute=True):
        email_queue_each_time(booking=booking, kind=BookingEmail.Kind.CHANGED)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=False):
        frozen_time.shift(60)
        email_queue(booking=booking, kind=BookingEmail.Kind.CANCELLED)
        frozen_time.shift(60)
        email_queue_each_time(booking=booking, kind=BookingEmail.Kind.CHANGED)
    changed = BookingEmail.objects.get(booking=booking, kind="booking_changed")
    assert send_booking_email.delay(changed.pk).get() is True
    ref = booking.booking_reference
    assert [m.subject for m in mail.outbox if m.to == ["ana@example.com"]] == [
        f"Reserva {ref} cancelada",
        f"Reserva {ref}: os seus voos foram alterados",
    ]


@needs_postgresql("row locks; SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
def test_two_tasks_racing_send_each_email_once_in_order(live_client, agency):
    """The two tasks of a booking at the same moment on two workers: each e-mail once, the
    earlier first, whichever task takes the lock."""
    from bookings.emails import email_send

    booking = Booking.objects.get(pk=book(live_client, holdable(live_client)).json()["id"])
    # Both queued and neither sent yet (their tasks are the two racing below).
    BookingEmail.objects.filter(booking=booking).update(sent_at=None)
    BookingEmail.objects.create(booking=booking, kind=BookingEmail.Kind.CANCELLED)
    mail.outbox.clear()
    rows = list(BookingEmail.objects.filter(booking=booking).order_by("queued_at", "pk"))
    assert [row.kind for row in rows] == ["booking_created", "booking_cancelled"]
    barrier, sent = threading.Barrier(2), []

    def worker(email_id):
        barrier.wait()
        try:
            sent.append(email_send(email_id=email_id))  # what each worker's task runs
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(row.pk,)) for row in reversed(rows)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ref = booking.booking_reference
    assert [m.subject for m in mail.outbox if m.to == ["ana@example.com"]] == [
        f"Reserva {ref} recebida",
        f"Reserva {ref} cancelada",
    ]
    assert True in sent and len(sent) == 2
    assert BookingEmail.objects.filter(booking=booking, sent_at__isnull=True).count() == 0
