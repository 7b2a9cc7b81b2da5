"""A seat bought with a booking, as the agency reads it in a real Chromium set to Portuguese: the
booking page's itinerary names the seat and whose it is beside the flight's bags, and its
extras section lists it and a bag bought later. With PANEL_SCREENSHOTS=docs/screenshots it saves
booking-page-seat-1440.png, booking-page-extras-1440.png and their -390 (docs/booking-page.md)."""

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from bookings.tests.helpers import book, offers, paid_seat, seat_maps
from tests.kit.browsers import DESKTOP, PASSWORD, PHONE, log_in, needs_chromium, screenshot
from tests.kit.factories import fund, make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_the_booking_page_shows_the_seat_bought_with_the_booking(
    live_server, browser_pt_br, live_sandbox
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    fund(made.team, "100000.00")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    offer = next(o for o in offers(api) if o["payment_requirements"]["requires_instant_payment"])
    element, seat = paid_seat(seat_maps(api, offer)[0])
    total = Decimal(offer["total_amount"]) + Decimal(seat["total_amount"])
    payment = {"type": "balance", "amount": f"{total:.2f}", "currency": offer["total_currency"]}
    response = book(
        api,
        offer,
        type="instant",
        payments=[payment],
        services=[{"id": seat["id"], "quantity": 1}],
    )
    assert response.status_code == 201, response.content
    booking_id = response.json()["id"]
    # A bag bought after the sale.
    [bag, *_] = api.get(f"/api/v1/bookings/{booking_id}/available_services").json()["data"]
    bag_payment = {"type": "balance", "amount": bag["total_amount"], "currency": "BRL"}
    added = api.post(
        f"/api/v1/bookings/{booking_id}/services",
        {"add_services": [{"id": bag["id"], "quantity": 1}], "payment": bag_payment},
        format="json",
    )
    assert added.status_code == 200, added.content

    wait = WebDriverWait(browser_pt_br, 20)
    log_in(live_server, browser_pt_br, wait)
    url = reverse("admin:bookings_booking_change", args=[booking_id])
    browser_pt_br.get(live_server.url + url)
    shown = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".bp-seat")))

    assert shown.text.startswith(f"Assento {element['designator']}")
    assert shown.text.endswith(": Ana Souza")  # whose seat it is
    screenshot(browser_pt_br, "booking-page-seat-1440", DESKTOP)
    screenshot(browser_pt_br, "booking-page-seat-390", PHONE)
    extras = browser_pt_br.find_element(By.ID, "bp-extras")
    browser_pt_br.execute_script("arguments[0].scrollIntoView()", extras)
    bought = extras.find_elements(By.CSS_SELECTOR, "tbody.bp-extras-purchase")
    assert bought[0].text.startswith("Com a reserva")
    assert f"Assento {element['designator']}" in bought[0].text
    assert "1 bagagem despachada de até 23 kg" in bought[1].text
    assert bought[1].get_attribute("data-purchase").startswith("bsv_")
    screenshot(browser_pt_br, "booking-page-extras-1440", DESKTOP)
    screenshot(browser_pt_br, "booking-page-extras-390", PHONE)


def test_the_booking_page_lists_a_flight_change_made_on_request(
    live_server, browser_pt_br, live_sandbox
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    fund(made.team, "100000.00")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    offer = next(o for o in offers(api) if o["conditions"]["change_before_departure"]["allowed"])
    booked = book(api, offer, type="instant").json()
    outbound = booked["slices"][0]
    add = {"origin": "GRU", "destination": "BSB", "cabin_class": "economy"}
    asked = api.post(
        f"/api/v1/bookings/{booked['id']}/change_requests",
        {
            "slices": {
                "remove": [{"slice_id": outbound["id"]}],
                "add": [{**add, "departure_date": "2027-01-20"}],
            }
        },
        format="json",
    )
    assert asked.status_code == 201, asked.content
    change = asked.json()["data"]["change_offers"][0]
    payment = {
        "type": "balance",
        "amount": change["change_total_amount"],
        "currency": change["change_total_currency"],
    }
    changed = api.post(
        f"/api/v1/bookings/{booked['id']}/changes",
        {"change_offer_id": change["id"], "payment": payment},
        format="json",
    )
    assert changed.status_code == 200, changed.content

    wait = WebDriverWait(browser_pt_br, 20)
    log_in(live_server, browser_pt_br, wait)
    url = reverse("admin:bookings_booking_change", args=[booked["id"]])
    browser_pt_br.get(live_server.url + url)
    row = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".bp-flight-change")))

    assert change["id"] in row.text and "GRU → BSB" in row.text
    assert "R$" in row.text
    screenshot(browser_pt_br, "booking-page-flight-change-1440", DESKTOP)
