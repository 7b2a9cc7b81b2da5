"""The booking page in a real Chromium set to Portuguese: an agency user opens a round trip to
Lisbon with a connection, paid and then cancelled, and reads its itinerary in each airport's
local time, its passengers and tickets, the client's price and the money moved, and its
timeline. With PANEL_SCREENSHOTS=docs/screenshots it saves booking-page-1440.png and -390.png."""

from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse
from rest_framework.test import APIClient

from bookings.models import Booking
from bookings.retention import booking_personal_data_erase
from bookings.tests.helpers import (
    BOOKING_EVENTS,
    book_two,
    round_trip_with_a_codeshare_connection,
)
from core.money import money_display
from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    log_in,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.kit.factories import fund, make_endpoint, make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("live_sandbox")  # live keys book the sandbox here
def test_an_agency_user_reads_a_booking_page_in_portuguese(
    live_server,
    browser_pt_br,
    https_receiver,
):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team(
        "Alpha Travel",
        owner_email="ana@alpha.example",
        owner_password=PASSWORD,
        fee=Decimal("12.00"),
        markup_percent=Decimal("10.00"),
    )
    fund(made.team, "100000.00")
    make_endpoint(made.team, https_receiver.url, events=BOOKING_EVENTS)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    offer = round_trip_with_a_codeshare_connection(api)
    booking = book_two(api, offer)
    payment = {
        "type": "balance",
        "amount": offer["total_amount"],
        "currency": offer["total_currency"],
    }
    paid = api.put(f"/api/v1/bookings/{booking.id}/confirm", {"payment": payment}, format="json")
    assert paid.status_code == 200, paid.json()
    booking = Booking.objects.get(pk=booking.pk)
    assert booking.status == Booking.Status.TICKETED

    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in(live_server, browser_pt_br, wait)
    url = reverse("admin:bookings_booking_change", args=[booking.pk])
    page = open_page(live_server, browser_pt_br, wait, url)
    wait.until(EC.visibility_of_element_located((By.ID, "bp-timeline")))

    assert "Localizador" in page and booking.booking_reference in page
    assert "Ida: São Paulo → Lisboa" in page and "Volta: Lisboa → São Paulo" in page
    # The outbound leaves at Guarulhos' local time and lands at Lisbon's, the next day.
    outbound = offer["slices"][0]["segments"][0]
    departs, arrives = outbound["departing_at"][11:16], outbound["arriving_at"][11:16]
    first = browser_pt_br.find_element(By.CSS_SELECTOR, "#bp-itinerary .bp-segment").text
    assert departs in first and "15 de janeiro de 2027" in first
    assert arrives in first and "16 de janeiro de 2027" in first and "+1" in first
    assert "Conexão em" in page and "Operado por" in page
    for passenger in browser_pt_br.find_elements(By.CSS_SELECTOR, "#bp-passengers .bp-passenger"):
        assert len(passenger.find_element(By.CSS_SELECTOR, ".bp-tickets code").text) == 13
    money = browser_pt_br.find_element(By.ID, "bp-money").text.replace("\N{NO-BREAK SPACE}", " ")
    assert money_display(booking.client_amount).replace("\N{NO-BREAK SPACE}", " ") in money
    assert "Ganho da agência" in money and "R$ 12,00" in money
    assert "Pago com o saldo da carteira em" in money and "(horário de Brasília)" in money
    entries = browser_pt_br.find_elements(By.CSS_SELECTOR, "#bp-timeline .bp-entry")
    codes = [e.get_attribute("data-code") or e.get_attribute("data-kind") for e in entries]
    assert codes[0] == "booking.created" and "booking.ticketed" in codes
    assert codes.index("payment") < codes.index("booking.confirmed")
    assert "Entregue" in entries[0].text
    # Agency users view bookings here and cancel them through the API: no cancel button.
    assert not browser_pt_br.find_elements(By.CSS_SELECTOR, ".page-action")
    # The fields as before, one click away.
    assert not browser_pt_br.find_element(By.ID, "bp-all-fields").get_attribute("open")
    # The whole page: it is longer than the panel's other pages on a phone.
    screenshot(browser_pt_br, "booking-page-1440", DESKTOP, longest=6000)
    screenshot(browser_pt_br, "booking-page-390", PHONE, longest=6000)

    # Years later the passengers' personal data is erased: the page says so and shows the rest.
    with time_machine.travel(booking.departing_at + timedelta(days=800)):
        assert booking_personal_data_erase(booking=booking)
    page = open_page(live_server, browser_pt_br, wait, url)
    wait.until(EC.visibility_of_element_located((By.ID, "bp-erased")))
    assert "Dados pessoais apagados em" in page and "[apagado]" in page
    assert "Ana Souza" not in page and "ana@example.com" not in page
    assert booking.booking_reference in page and "Conexão em" in page
    assert money_display(booking.client_amount).replace("\N{NO-BREAK SPACE}", " ") in page


@pytest.mark.usefixtures("live_sandbox")
def test_a_booking_opens_on_its_page_from_the_bookings_list(live_server, browser_pt_br):
    """The review's finding: the list's links carry the admin's quoted id (`ord_5F01…`), which
    the page did not unquote, so a booking opened from the list showed only its raw fields."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    from bookings.tests.helpers import instant

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    fund(made.team, "100000.00")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    response = instant(api, "Souza")
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])

    wait = WebDriverWait(browser_pt_br, 20)
    log_in(live_server, browser_pt_br, wait)
    open_page(live_server, browser_pt_br, wait, reverse("admin:bookings_booking_changelist"))
    link = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#result_list tbody a")))
    assert "ord_5F" in link.get_attribute("href")  # quoted, as the admin writes every link
    link.click()

    summary = wait.until(EC.visibility_of_element_located((By.ID, "bp-itinerary")))
    assert summary.is_displayed()
    assert "Localizador" in browser_pt_br.find_element(By.ID, "content").text
    assert booking.booking_reference in browser_pt_br.find_element(By.ID, "content").text
