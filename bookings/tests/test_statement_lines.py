"""The wallet statement's booking lines: a booking's movement (its sale, refund, change or
extras) shows the booking's locator, lead passenger and route on the page, in the CSV (last
columns) and in the PDF; erased passengers read as on the booking's page; another team's or the
other mode's booking is never described; and the page asks for the bookings once, not once a
line. The wallet sits below the bookings: it finds them by settings.WALLET_LEDGER_BOOKINGS."""

import csv
import io
import shutil
import subprocess
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client as BrowserClient
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from bookings.retention import booking_personal_data_erase
from bookings.tests.factories import (
    BookingChangeOfferFactory,
    BookingFactory,
    BookingPassengerFactory,
    BookingServicesPurchaseFactory,
)
from core.timestamps import business_date
from wallet.models import Transaction
from wallet.services import wallet_credit, wallet_debit

pytestmark = pytest.mark.django_db

PAGE = reverse("admin:wallet_statement")
CSV = reverse("admin:wallet_statement_csv")
PDF = reverse("admin:wallet_statement_pdf")
PDFTOTEXT = shutil.which("pdftotext") or "/usr/bin/pdftotext"
Ref = Transaction.ReferenceType


def today_query(**extra) -> dict:
    day = business_date(timezone.now()).strftime("%d/%m/%Y")
    return {"start": day, "end": day, **extra}


def browser_for(user) -> BrowserClient:
    client = BrowserClient(HTTP_ACCEPT_LANGUAGE="pt-br")
    client.force_login(user)
    return client


def move(team, kind, amount, reference_type, reference_id, *, live_mode=True, description=""):
    service = wallet_credit if kind == "credit" else wallet_debit
    extra = {"payment_method": "pix"} if reference_type == Ref.RECHARGE else {}
    return service(
        team=team,
        live_mode=live_mode,
        amount=Decimal(amount),
        reference_type=reference_type,
        reference_id=reference_id,
        description=description or f"{reference_type} {reference_id}",
        **extra,
    )


def booked(team, locator, given, family, *, live_mode=True, **fields):
    booking = BookingFactory(
        client__team=team,
        client__live_mode=live_mode,
        booking_reference=locator,
        status="ticketed",
        **fields,
    )
    BookingPassengerFactory(booking=booking, position=0, given_name=given, family_name=family)
    BookingPassengerFactory(booking=booking, position=1, given_name="Segundo", family_name="Nome")
    return booking


@pytest.fixture
def a_day_of_bookings(team):
    """A recharge, then every kind of booking movement: the sale, its extras and their refund,
    a change, a refund of the booking."""
    sale = booked(team, "ABC123", "Ana", "Souza")
    extras = BookingServicesPurchaseFactory(booking=sale)
    changed = booked(team, "XYZ789", "Bruno", "Lima")
    offer = BookingChangeOfferFactory(booking=changed, change_request__booking=changed)
    move(team, "credit", "5000.00", Ref.RECHARGE, "rch_day")
    move(team, "debit", "612.40", Ref.BOOKING, sale.id)
    move(team, "debit", "150.00", Ref.BOOKING_SERVICES, extras.id)
    move(team, "credit", "150.00", Ref.REFUND, extras.id)
    move(team, "debit", "120.00", Ref.BOOKING_CHANGE, offer.id)
    move(team, "credit", "612.40", Ref.REFUND, sale.id)
    return sale, changed


def page_rows(response) -> list[tuple[str, str]]:
    """Each movement's reference type and the booking it shows (`None` when none)."""
    return [
        (line.transaction.reference_type, line.booking and line.booking.locator)
        for line in response.context["lines"]
    ]


def test_each_booking_movement_shows_the_locator_lead_passenger_and_route(
    team, team_owner, a_day_of_bookings
):
    response = browser_for(team_owner).get(PAGE, today_query())
    assert response.status_code == 200
    assert page_rows(response) == [
        (Ref.RECHARGE, None),
        (Ref.BOOKING, "ABC123"),
        (Ref.BOOKING_SERVICES, "ABC123"),
        (Ref.REFUND, "ABC123"),
        (Ref.BOOKING_CHANGE, "XYZ789"),
        (Ref.REFUND, "ABC123"),
    ]
    html = response.content.decode()
    assert '<th scope="col">Reserva</th>' in html
    assert (
        '<strong class="locator">ABC123</strong> · <span class="passenger">Ana Souza</span>'
        '<br><small class="route">GRU → BSB</small>'
    ) in html
    assert '<span class="passenger">Bruno Lima</span>' in html
    assert "Segundo" not in html  # the lead passenger only


def test_erased_passengers_read_as_on_the_bookings_page(team, team_owner):
    booking = booked(team, "ERA001", "Carla", "Dias")
    move(team, "credit", "1000.00", Ref.RECHARGE, "rch_erase")
    move(team, "debit", "612.40", Ref.BOOKING, booking.id)
    assert booking_personal_data_erase(booking=booking)

    html = browser_for(team_owner).get(PAGE, today_query()).content.decode()
    assert '<span class="passenger">[apagado]</span>' in html
    assert "Carla" not in html
    assert "ERA001" in html and "GRU → BSB" in html  # the locator and route are kept


def test_a_booking_without_a_locator_yet_shows_its_passenger_and_route(team, team_owner):
    booking = booked(team, "", "Davi", "Reis")
    move(team, "credit", "1000.00", Ref.RECHARGE, "rch_nolocator")
    move(team, "debit", "612.40", Ref.BOOKING, booking.id)

    html = browser_for(team_owner).get(PAGE, today_query()).content.decode()
    assert '<td class="booking"><span class="passenger">Davi Reis</span>' in html


def test_another_teams_or_the_other_modes_booking_is_never_described(team, team_owner, other_team):
    theirs = booked(other_team, "OTH001", "Outra", "Equipe")
    test_booking = booked(team, "TST001", "Teste", "Modo", live_mode=False)
    move(team, "credit", "1000.00", Ref.RECHARGE, "rch_scope")
    # References that do not resolve in this team's live data (never written so today).
    move(team, "debit", "10.00", Ref.BOOKING, theirs.id)
    move(team, "debit", "10.00", Ref.BOOKING, test_booking.id)
    move(team, "debit", "10.00", Ref.BOOKING, "ord_gone")

    response = browser_for(team_owner).get(PAGE, today_query())
    assert [booking for _, booking in page_rows(response)] == [None, None, None, None]
    html = response.content.decode()
    assert "Outra" not in html and "Teste" not in html


def test_the_page_asks_for_the_bookings_once_whatever_the_number_of_lines(team, team_owner):
    move(team, "credit", "100000.00", Ref.RECHARGE, "rch_many")
    browser = browser_for(team_owner)

    def queries_for_the_page() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert browser.get(PAGE, today_query()).status_code == 200
        return len(queries)

    first = booked(team, "ONE001", "Um", "Só")
    move(team, "debit", "10.00", Ref.BOOKING, first.id)
    with_one = queries_for_the_page()
    for number in range(30):
        booking = booked(team, f"MNY{number:03d}", f"Nome{number}", "Silva")
        move(team, "debit", "10.00", Ref.BOOKING, booking.id)
        purchase = BookingServicesPurchaseFactory(booking=booking)
        move(team, "debit", "5.00", Ref.BOOKING_SERVICES, purchase.id)
    with_sixty_more = queries_for_the_page()
    assert with_sixty_more == with_one
    response = browser.get(PAGE, today_query())
    assert sum(1 for _, locator in page_rows(response) if locator) == 61


def test_a_page_with_no_booking_movement_does_not_ask_for_bookings(team, team_owner):
    move(team, "credit", "100.00", Ref.RECHARGE, "rch_only")
    browser = browser_for(team_owner)
    with CaptureQueriesContext(connection) as queries:
        assert browser.get(PAGE, today_query()).status_code == 200
    assert not [q for q in queries.captured_queries if "bookings_booking" in q["sql"]]


def read_csv(response) -> list[list[str]]:
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(body), delimiter=";"))


def test_the_csv_adds_locator_passenger_and_route_after_the_existing_columns(
    team, team_owner, a_day_of_bookings
):
    sale, _ = a_day_of_bookings
    rows = read_csv(browser_for(team_owner).get(CSV, today_query()))
    header = rows[rows.index([]) + 1]
    assert header == [
        "Data e hora (horário de Brasília)",
        "Descrição",
        "Tipo",
        "Referência",
        "Valor (R$)",
        "Saldo (R$)",
        "Transação",
        "Localizador",
        "Passageiro principal",
        "Rota",
    ]
    movements = rows[rows.index([]) + 2 :]
    assert [m[7:] for m in movements] == [
        ["", "", ""],
        ["ABC123", "Ana Souza", "GRU → BSB"],
        ["ABC123", "Ana Souza", "GRU → BSB"],
        ["ABC123", "Ana Souza", "GRU → BSB"],
        ["XYZ789", "Bruno Lima", "GRU → BSB"],
        ["ABC123", "Ana Souza", "GRU → BSB"],
    ]
    assert movements[1][3] == f"Reserva {sale.id}"  # the columns before are unchanged
    assert movements[1][4] == "-612,40"


def test_a_passenger_name_that_looks_like_a_formula_is_text_in_the_csv(team, team_owner):
    booking = booked(team, "FRM001", "=HYPERLINK(1)", "X")
    move(team, "credit", "1000.00", Ref.RECHARGE, "rch_formula")
    move(team, "debit", "10.00", Ref.BOOKING, booking.id)
    rows = read_csv(browser_for(team_owner).get(CSV, today_query()))
    assert rows[-1][8] == "'=HYPERLINK(1) X"


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils' pdftotext")
def test_the_pdf_shows_each_bookings_locator_passenger_and_route(
    team, team_owner, a_day_of_bookings
):
    response = browser_for(team_owner).get(PDF, today_query())
    assert response.status_code == 200
    text = subprocess.run(  # noqa: S603 - fixed arguments
        [PDFTOTEXT, "-layout", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout.decode()
    assert text.count("ABC123 · Ana Souza · GRU → BSB") == 4
    assert text.count("XYZ789 · Bruno Lima · GRU → BSB") == 1
