"""What the booking e-mails say, in each team language: the customer's BRL price (never the
airline's fare), the refund, flight times in the airports' local time, the deadline in São Paulo
time, how to pay; from the service's address under the agency's name, answered to the agency;
HTML with a plain-text part (docs/emails.md)."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from email import message_from_bytes
from email.policy import default as email_policy
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from bookings.emails import booking_email_message, customer_refund
from bookings.models import Booking, BookingDocument, BookingEmail
from bookings.tasks import send_booking_email
from bookings.tests.helpers import book, holdable
from core.money import money_display
from tests.kit.clock import NOW
from tests.kit.factories import make_endpoint
from tests.kit.passengers import passenger
from webhooks.emails import deactivation_alert_send

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

AGENCY = "Agência Sol & Mar"
AGENCY_EMAIL = "reservas@solemar.example"
SERVICE_ADDRESS = "reservas@servico.example"
MONTHS = {
    "pt-br": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro "
    "dezembro",
    "en": "January February March April May June July August September October November December",
}
PRICE = {"pt-br": "R$\N{NO-BREAK SPACE}1.234,56", "en": "R$\N{NO-BREAK SPACE}1,234.56"}
SUBJECTS = {
    "pt-br": {
        "booking_created": "Reserva {ref} recebida",
        "ticket_issued": "Seus bilhetes eletrônicos da reserva {ref}",
        "payment_reminder": "Pagamento pendente da reserva {ref}",
        "booking_cancelled": "Reserva {ref} cancelada",
    },
    "en": {
        "booking_created": "Booking {ref} received",
        "ticket_issued": "Your e-tickets for booking {ref}",
        "payment_reminder": "Payment due for booking {ref}",
        "booking_cancelled": "Booking {ref} cancelled",
    },
}
KINDS = list(SUBJECTS["en"])


@pytest.fixture(autouse=True)
def service_address(settings):
    settings.SERVICE_EMAIL_ADDRESS = SERVICE_ADDRESS
    settings.SUPPORT_EMAIL_ADDRESS = "suporte@servico.example"


def written(moment: datetime, language: str) -> str:
    """A date and time as people write it, spelled out here without the code under test."""
    month = MONTHS[language].split()[moment.month - 1]
    if language == "en":
        return f"{moment.day} {month} {moment.year}, {moment:%H:%M}"
    return f"{moment.day} de {month} de {moment.year}, {moment:%H:%M}"


@pytest.fixture
def booking(live_client, team):
    """A live hold to Lisbon through Madrid (local times on two continents) whose customer pays
    R$ 1.234,56, booked by an agency with an accented name."""
    agency = team
    agency.name, agency.notification_email = AGENCY, AGENCY_EMAIL
    agency.save()
    offer = holdable(live_client, origin="GRU", destination="LIS")
    passport = {
        "type": "passport",
        "unique_identifier": "FX123456",
        "issuing_country_code": "BR",
        "expires_on": "2031-01-01",
    }
    pid = offer["passengers"][0]["id"]
    response = book(live_client, offer, people=[passenger(pid, identity_documents=[passport])])
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    booking.client_amount = Decimal("1234.56")
    booking.save()
    return booking


def render(booking, kind, language):
    booking.team.language = language
    booking.team.save()
    booking = Booking.objects.select_related("team").get(pk=booking.pk)
    return booking_email_message(
        booking=booking,
        kind=kind,
        passengers=list(booking.passengers.all()),
        documents=list(booking.documents.all()),
        to=["ana@example.com"],
    )


def parts(message):
    """The sent message as a mail client reads it: headers, the text part and the HTML part."""
    parsed = message_from_bytes(message.message().as_bytes(), policy=email_policy)
    text = parsed.get_body(preferencelist=("plain",))
    html = parsed.get_body(preferencelist=("html",))
    return parsed, text.get_content(), html.get_content()


@pytest.mark.parametrize("language", ["pt-br", "en"])
@pytest.mark.parametrize("kind", KINDS)
def test_each_email_in_the_teams_language_with_the_customers_price(booking, kind, language):
    if kind == "ticket_issued":
        BookingDocument.objects.create(
            booking=booking,
            passenger_id=booking.passengers.get().passenger_id,
            unique_identifier="0752300000001",
        )
        Booking.objects.filter(pk=booking.pk).update(status="ticketed", confirmed_at=NOW)
    if kind == "booking_cancelled":
        Booking.objects.filter(pk=booking.pk).update(status="cancelled", cancelled_at=NOW)
    message = render(booking, kind, language)
    parsed, text, html = parts(message)

    assert parsed["Subject"] == SUBJECTS[language][kind].format(ref=booking.booking_reference)
    [sender] = parsed["From"].addresses
    assert (sender.display_name, sender.addr_spec) == (AGENCY, SERVICE_ADDRESS)
    assert "=?utf-8?" in message.message()["From"]  # the accented name is encoded on the wire
    assert [a.addr_spec for a in parsed["Reply-To"].addresses] == [AGENCY_EMAIL]
    assert parsed.get_content_type() == "multipart/alternative"
    assert f'<html lang="{language}">' in html

    for body in (text, html):
        assert AGENCY in body.replace("&amp;", "&")  # the agency's name in the body
        assert PRICE[language] in body  # what the customer pays, in reais
        # Never the airline's net fare, nor its currency.
        assert booking.total_currency not in body and str(booking.total_amount) not in body
        assert money_display(booking.total_amount, booking.total_currency) not in body
        for segment in booking.slices[0]["segments"]:  # the airports' local times
            departing = datetime.fromisoformat(segment["departing_at"])
            arriving = datetime.fromisoformat(segment["arriving_at"])
            assert written(departing, language) in body and written(arriving, language) in body
    assert "<strong>0752300000001</strong>" in html if kind == "ticket_issued" else True


@pytest.mark.parametrize("language", ["pt-br", "en"])
def test_the_payment_reminder_says_how_to_pay_and_until_when(booking, language):
    _, text, html = parts(render(booking, "payment_reminder", language))
    local = booking.payment_required_by.astimezone(ZoneInfo("America/Sao_Paulo"))
    if language == "pt-br":
        deadline = f"{written(local, language)} (horário de Brasília)"
        how = f"Para pagar, fale com a {AGENCY} em {AGENCY_EMAIL} ou responda a este e-mail."
        keep = f"Para garanti-la, pague {PRICE[language]} à {AGENCY} até {deadline}."
    else:
        deadline = f"{written(local, language)} (Brasília time)"
        how = f"To pay, contact {AGENCY} at {AGENCY_EMAIL}, or reply to this e-mail."
        keep = f"To keep it, pay {PRICE[language]} to {AGENCY} by {deadline}."
    assert keep in text and how in text
    assert keep.replace("&", "&amp;") in html
    assert f'<a href="mailto:{AGENCY_EMAIL}">{AGENCY_EMAIL}</a>' in html


@pytest.mark.parametrize(
    ("confirmed", "refund", "expected"),
    [
        (False, {"allowed": True, "penalty_amount": None}, "Nada foi cobrado por esta reserva"),
        (True, {"allowed": True, "penalty_amount": None}, "Reembolso: R$ 1.234,56, o valor total"),
        # The airline keeps 50 of a 200 fare: the customer gets 150/200 of the client price.
        (
            True,
            {"allowed": True, "penalty_amount": "50.00"},
            "Reembolso: R$ 925,92 dos R$ 1.234,56",
        ),
        (True, {"allowed": False, "penalty_amount": None}, "Esta tarifa não é reembolsável"),
    ],
)
def test_the_cancellation_says_what_the_customer_gets_back(booking, confirmed, refund, expected):
    condition = {
        **refund,
        "penalty_currency": booking.total_currency if refund["penalty_amount"] else None,
    }
    booking.conditions = {**booking.conditions, "refund_before_departure": condition}
    booking.total_amount = Decimal("200.00")
    booking.status = Booking.Status.CANCELLED
    booking.confirmed_at = NOW if confirmed else None
    booking.save()
    _, text, html = parts(render(booking, "booking_cancelled", "pt-br"))
    assert expected in text.replace("\N{NO-BREAK SPACE}", " ")
    assert expected.split(",")[0] in html.replace("\N{NO-BREAK SPACE}", " ").replace("<strong>", "")


def test_customer_refund_rule():
    booking = Booking(
        total_amount=Decimal("558.04"),
        client_amount=Decimal("3459.85"),
        confirmed_at=NOW,
        conditions={"refund_before_departure": {"allowed": True, "penalty_amount": "100.00"}},
    )
    # 3459.85 × 458.04 / 558.04 = 2839.85 (cents, half up)
    assert customer_refund(booking) == {
        "paid": True,
        "amount": Decimal("2839.85"),
        "full": False,
        "credits": [],
    }
    booking.conditions["refund_before_departure"]["penalty_amount"] = "600.00"  # above the fare
    assert customer_refund(booking)["amount"] == Decimal("0.00")


def test_a_cancellation_through_the_api_emails_in_english_for_an_english_team(
    live_client, booking, django_capture_on_commit_callbacks
):
    booking.team.language = "en"
    booking.team.save()
    with django_capture_on_commit_callbacks(execute=True):
        live_client.delete(f"/api/v1/bookings/{booking.pk}")
    # The booking's confirmation was never sent here (its task never ran): it goes first.
    *_, message, agency_copy = mail.outbox
    parsed, text, _ = parts(message)
    assert parsed["Subject"] == f"Booking {booking.booking_reference} cancelled"
    assert "Nothing was charged for this booking" in text
    assert parsed["Reply-To"].addresses[0].addr_spec == AGENCY_EMAIL
    assert message.to == ["ana@example.com"] and agency_copy.to == [AGENCY_EMAIL]
    assert agency_copy.subject == f"Agency copy: Booking {booking.booking_reference} cancelled"
    email = BookingEmail.objects.get(kind="booking_cancelled")
    assert send_booking_email.delay(email.pk).get() is False  # sent once


@pytest.mark.parametrize(
    ("language", "subject", "sentence"),
    [
        ("pt-br", "Webhook desativado após falhas de entrega", "foi desativado após 6 tentativas"),
        (
            "en",
            "Webhook deactivated after failed deliveries",
            "was deactivated after 6 consecutive",
        ),
    ],
)
def test_the_webhook_alert_in_the_teams_language(team, language, subject, sentence):
    agency = team
    agency.name, agency.notification_email, agency.language = AGENCY, AGENCY_EMAIL, language
    agency.save()
    deactivated = datetime(2027, 1, 15, 2, 30, tzinfo=UTC)  # 23:30 the day before in São Paulo
    endpoint = make_endpoint(
        agency,
        "https://hooks.solemar.example/x",
        active=False,
        consecutive_failures=6,
        deactivated_at=deactivated,
    )
    assert deactivation_alert_send(endpoint_id=endpoint.pk) is True
    [message] = mail.outbox
    parsed, text, html = parts(message)
    assert parsed["Subject"] == subject
    # The service tells the agency about its own integration: from the service, under its
    # Portuguese name, answered to support (not from the agency to itself).
    [sender] = parsed["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ("Painel da Agência", SERVICE_ADDRESS)
    assert [a.addr_spec for a in parsed["Reply-To"].addresses] == ["suporte@servico.example"]
    when = written(deactivated - timedelta(hours=3), language)
    for body in (text, html):
        assert sentence in body and when in body and AGENCY in body.replace("&amp;", "&")
