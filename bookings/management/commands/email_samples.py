"""Write a sample of each e-mail people receive, in Portuguese, to docs/emails/ (`<kind>.html`,
and `<kind>.txt`: the headers as a mail client shows them, then the plain-text part).

    DJANGO_SETTINGS_MODULE=config.settings.test .venv/bin/python manage.py email_samples

Rerun it after changing an e-mail: bookings/tests/test_email_samples.py fails while the samples
differ from what the code renders. The samples are built from unsaved objects (no database),
with fixed dates, amounts and addresses, so they change only when the e-mails do."""

from datetime import UTC, datetime
from decimal import Decimal
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.test import override_settings

SAMPLES_DIR = Path(settings.BASE_DIR) / "docs" / "emails"
SAMPLE_SETTINGS = {
    "SERVICE_EMAIL_ADDRESS": "reservas@backoffice.example",
    "PUBLIC_BASE_URL": "https://painel.backoffice.example",
    "SUPPORT_EMAIL_ADDRESS": "suporte@backoffice.example",
}


BAGGAGE = [{"type": "carry_on", "quantity": 1}, {"type": "checked", "quantity": 1}]


def _segment(origin, destination, departing, arriving, number, terminals=("", "")):
    carrier = {"iata_code": "IB", "name": "Iberia"}
    return {
        "id": f"seg_sample{number}",
        "origin": {**origin, "terminal": terminals[0]},
        "destination": {**destination, "terminal": terminals[1]},
        "departing_at": departing,
        "arriving_at": arriving,
        "marketing_carrier": carrier,
        "operating_carrier": carrier,
        "marketing_carrier_flight_number": number,
        "operating_carrier_flight_number": number,
        "passengers": [
            {"passenger_id": pid, "cabin_class": "economy", "baggages": BAGGAGE}
            for pid in ("pas_1", "pas_2")
        ],
    }


GRU = {"iata_code": "GRU", "name": "Guarulhos International Airport", "city_name": "São Paulo"}
MAD = {"iata_code": "MAD", "name": "Madrid Barajas International Airport", "city_name": "Madrid"}
LIS = {"iata_code": "LIS", "name": "Lisbon Portela Airport", "city_name": "Lisbon"}
SLICES = [
    {
        "origin": GRU,
        "destination": LIS,
        "duration": "PT15H35M",
        "segments": [
            _segment(GRU, MAD, "2027-01-15T16:25:00", "2027-01-16T07:25:00", "325", ("3", "4S")),
            _segment(MAD, LIS, "2027-01-16T10:50:00", "2027-01-16T11:00:00", "3570", ("4S", "1")),
        ],
    },
    {
        "origin": LIS,
        "destination": GRU,
        "duration": "PT15H40M",
        "segments": [
            _segment(LIS, MAD, "2027-01-29T07:05:00", "2027-01-29T09:15:00", "3563", ("1", "4")),
            _segment(MAD, GRU, "2027-01-29T12:20:00", "2027-01-29T19:45:00", "6827", ("4S", "3")),
        ],
    },
]


def _team():
    from agencies.models import Team

    return Team(
        id="team_01sample",
        name="Agência Sol & Mar",
        notification_email="reservas@solemar.example",
        language="pt-br",
    )


def _booking(team, **fields):
    from bookings.models import Booking

    values = {
        "id": "ord_01sampleorder",
        "team": team,
        "live_mode": True,
        "type": Booking.Type.HOLD,
        "status": Booking.Status.PENDING,
        "booking_reference": "7K8TN8",
        "total_amount": Decimal("558.04"),
        "total_currency": "EUR",
        "client_amount": Decimal("3459.85"),
        # The agency's side (its copy shows them): cost + markup + fee = the client's price.
        "base_cost_brl": Decimal("3259.60"),
        "markup_amount": Decimal("175.25"),
        "fee_amount": Decimal("25.00"),
        "owner": {"iata_code": "IB", "name": "Iberia"},
        "slices": SLICES,
        "conditions": {
            "refund_before_departure": {
                "allowed": True,
                "penalty_amount": "100.00",
                "penalty_currency": "EUR",
            },
        },
        "payment_required_by": datetime(2027, 1, 10, 2, 30, tzinfo=UTC),
    }
    return Booking(**{**values, **fields})


def sample_messages() -> dict:
    """{kind: message} for every e-mail, built the way the code sends it."""
    from bookings.emails import airline_change_email_message, booking_email_message
    from bookings.models import Booking, BookingAirlineChange, BookingDocument, BookingPassenger
    from webhooks.emails import deactivation_alert_message
    from webhooks.models import WebhookEndpoint

    team = _team()
    passengers = [
        BookingPassenger(passenger_id="pas_1", given_name="Ana", family_name="Souza"),
        BookingPassenger(passenger_id="pas_2", given_name="João", family_name="Souza"),
    ]
    tickets = [
        BookingDocument(passenger_id="pas_1", unique_identifier="0752300000001"),
        BookingDocument(passenger_id="pas_2", unique_identifier="0752300000002"),
    ]
    paid = datetime(2026, 11, 22, 15, 0, tzinfo=UTC)
    status = Booking.Status
    bookings = {
        "booking_created": (_booking(team), []),
        "ticket_issued": (_booking(team, status=status.TICKETED, confirmed_at=paid), tickets),
        "payment_reminder": (_booking(team), []),
        "booking_cancelled": (
            _booking(team, status=status.CANCELLED, confirmed_at=paid, cancelled_at=paid),
            tickets,
        ),
        "booking_changed": (_booking(team, status=status.TICKETED, confirmed_at=paid), tickets),
        "booking_failed": (
            _booking(team, status=status.FAILED, failure_reason="The airline refused the fare"),
            [],
        ),
        "services_added": (
            _booking(
                team,
                status=status.TICKETED,
                confirmed_at=paid,
                client_amount=Decimal("3830.55"),
                services=[
                    {
                        "id": "ase_sample_bag",
                        "type": "baggage",
                        "passenger_ids": ["pas_1"],
                        "segment_ids": ["seg_sample325", "seg_sample3570"],
                        "quantity": 1,
                        "total_amount": "60.00",
                        "total_currency": "EUR",
                        "base_cost_brl": "337.00",
                        "client_amount": "370.70",
                        "client_currency": "BRL",
                        "metadata": {"type": "checked", "maximum_weight_kg": 23},
                        "purchase_id": "bsv_01samplepurchase",
                    }
                ],
            ),
            tickets,
        ),
    }
    # The travellers' e-mail of each kind; the agency's own: the failure (the agency's alone) and
    # the copy of the tickets' e-mail.
    messages = {
        kind: booking_email_message(
            booking=booking,
            kind=kind,
            passengers=passengers,
            documents=documents,
            to=[team.notification_email] if kind == "booking_failed" else ["ana@example.com"],
            for_agency=kind == "booking_failed",
        )
        for kind, (booking, documents) in bookings.items()
    }
    booking, documents = bookings["ticket_issued"]
    messages["ticket_issued_agency_copy"] = booking_email_message(
        booking=booking,
        kind="ticket_issued",
        passengers=passengers,
        documents=documents,
        to=[team.notification_email],
        for_agency=True,
        sent_to=["ana@example.com"],
    )
    ticketed = _booking(team, status=status.TICKETED, confirmed_at=paid)
    outbound: dict = SLICES[0]
    later = {  # the airline moves the outbound 2 h 35 min later
        **outbound,
        "segments": [
            {**segment, "departing_at": departing, "arriving_at": arriving}
            for segment, (departing, arriving) in zip(
                outbound["segments"],
                [
                    ("2027-01-15T19:00:00", "2027-01-16T10:00:00"),
                    ("2027-01-16T13:25:00", "2027-01-16T13:35:00"),
                ],
                strict=True,
            )
        ],
    }
    messages["airline_change"] = airline_change_email_message(
        change=BookingAirlineChange(booking=ticketed, removed=[outbound], added=[later]),
        passengers=passengers,
        documents=tickets,
        to=["ana@example.com"],
    )
    endpoint = WebhookEndpoint(
        id="wh_01sampleendpoint",
        team=team,
        live_mode=True,
        url="https://hooks.solemar.example/viagens",
        active=False,
        consecutive_failures=6,
        deactivated_at=datetime(2027, 1, 15, 2, 30, tzinfo=UTC),
    )
    messages["webhook_deactivated"] = deactivation_alert_message(
        endpoint=endpoint, to=[team.notification_email]
    )
    messages.update(_withdrawal_messages(team))
    messages["invitation"] = _invitation_message(team)
    return messages


def _invitation_message(team):
    from agencies.models import Invitation, User
    from agencies.services import invitation_email_message

    maria = User(email="maria@solemar.example", first_name="Maria", last_name="Souza")
    invitation = Invitation(
        id="inv_01sampleinvitation",
        team=team,
        email="joao@solemar.example",
        invited_by=maria,
        expires_at=datetime(2027, 1, 18, 15, 0, tzinfo=UTC),
    )
    link = "https://painel.backoffice.example/admin/invitation/<token>/"  # signed when sent
    return invitation_email_message(invitation=invitation, link=link)


def _withdrawal_messages(team) -> dict:
    from wallet.emails import withdrawal_email_message
    from wallet.models import Withdrawal

    def withdrawal(**fields):
        return Withdrawal(
            team=team,
            live_mode=True,
            amount=Decimal("1500.00"),
            pix_key_type="cnpj",
            pix_key="11222333000181",
            provider="asaas",
            created_at=datetime(2027, 1, 15, 13, 0, tzinfo=UTC),
            updated_at=datetime(2027, 1, 15, 13, 1, tzinfo=UTC),
            **fields,
        )

    done = withdrawal(
        id="wdr_01samplewithdrawaldone",
        status="completed",
        completed_at=datetime(2027, 1, 15, 13, 0, 40, tzinfo=UTC),
    )
    failed = withdrawal(
        id="wdr_01samplewithdrawalfail",
        status="failed",
        failed_at=datetime(2027, 1, 15, 13, 2, tzinfo=UTC),
        failure_code="holder_mismatch",
        holder_name="Outra Empresa Ltda",
        holder_tax_id="45.997.418/0001-53",
        failure_reason="The PIX key's holder (Outra Empresa Ltda, 45.997.418/0001-53) is not "
        "the team's CNPJ or CPF",
    )
    return {
        "withdrawal_completed": withdrawal_email_message(
            withdrawal=done, to=[team.notification_email]
        ),
        "withdrawal_failed": withdrawal_email_message(
            withdrawal=failed, to=[team.notification_email]
        ),
    }


def samples() -> dict[str, str]:
    """{file name: content} of docs/emails/."""
    files = {}
    with override_settings(**SAMPLE_SETTINGS):
        messages = sample_messages()
    for kind, message in messages.items():
        parsed = message_from_bytes(message.message().as_bytes(), policy=email_policy)
        headers = "".join(
            f"{name}: {str(parsed[name]).strip()}\n"
            for name in ("Subject", "From", "Reply-To", "To")
            if parsed[name]
        )
        plain, html = parsed.get_body(("plain",)), parsed.get_body(("html",))
        assert plain is not None and html is not None  # every e-mail has both parts
        files[f"{kind}.txt"] = f"{headers}\n{plain.get_content()}"
        files[f"{kind}.html"] = html.get_content()
    return files


class Command(BaseCommand):
    help = "Write a sample of each e-mail (Portuguese, HTML and text) to docs/emails/."

    def handle(self, *args, **options):
        SAMPLES_DIR.mkdir(parents=True, exist_ok=True)
        for name, content in samples().items():
            (SAMPLES_DIR / name).write_text(content, encoding="utf-8")
            self.stdout.write(f"docs/emails/{name}")
