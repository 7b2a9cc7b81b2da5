"""The booking page in a real Chromium set to Portuguese shows the airline's schedule change: an
agency user opens a ticketed booking whose airline moved the outbound flight, reads it as booked
and as changed (each airport's local time), then, once the change is accepted, the itinerary
with the new times. With PANEL_SCREENSHOTS=docs/screenshots it saves
booking-page-airline-change-1440.png."""

from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from bookings.models import Booking
from bookings.tests.helpers import book, offers, passenger
from tests.kit.browsers import DESKTOP, PASSWORD, log_in, needs_chromium, open_page, screenshot
from tests.kit.factories import fund, make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("live_sandbox")  # live keys book the sandbox here
def test_an_agency_user_reads_the_airlines_change_on_the_booking_page(live_server, browser_pt_br):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    fund(made.team, "100000.00")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    offer = next(o for o in offers(api) if o["payment_requirements"]["requires_instant_payment"])
    made_booking = book(
        api,
        offer,
        type="instant",
        people=[passenger(offer["passengers"][0]["id"], family_name="Schedulechange")],
        payments=[
            {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        ],
    )
    assert made_booking.status_code == 201, made_booking.content
    booking = Booking.objects.get(pk=made_booking.json()["id"])
    [change] = api.get(f"/api/v1/bookings/{booking.id}/airline_changes").json()["data"]
    booked = booking.slices[0]["segments"][0]
    old_time = booked["departing_at"][11:16]
    new_time = (datetime.fromisoformat(booked["departing_at"]) + timedelta(minutes=155)).strftime(
        "%H:%M"
    )

    wait = WebDriverWait(browser_pt_br, 20)
    log_in(live_server, browser_pt_br, wait)
    url = reverse("admin:bookings_booking_change", args=[booking.pk])
    page = open_page(live_server, browser_pt_br, wait, url)
    wait.until(EC.visibility_of_element_located((By.ID, "bp-airline-changes")))
    section = browser_pt_br.find_element(By.ID, "bp-airline-changes").text
    assert "Mudanças de horário da companhia aérea" in section and "Sem resposta" in section
    assert "a companhia aérea permite: aceitar, cancelar" in section
    assert "como reservado" in section.lower() and "como a companhia aérea mudou" in section.lower()
    before = browser_pt_br.find_element(By.CSS_SELECTOR, ".bp-change-before").text
    after = browser_pt_br.find_element(By.CSS_SELECTOR, ".bp-change-after").text
    assert old_time in before and new_time in after and new_time not in before
    # Unanswered: highlighted; the itinerary is still the booking's as booked.
    assert browser_pt_br.find_elements(By.CSS_SELECTOR, ".bp-airline-change-open")
    first = browser_pt_br.find_element(By.CSS_SELECTOR, "#bp-itinerary .bp-segment").text
    assert old_time in first
    assert change["id"] in page
    screenshot(browser_pt_br, "booking-page-airline-change-1440", DESKTOP, longest=3000)

    accepted = api.post(f"/api/v1/bookings/{booking.id}/airline_changes/{change['id']}/accept")
    assert accepted.status_code == 200, accepted.content
    open_page(live_server, browser_pt_br, wait, url)
    section = browser_pt_br.find_element(By.ID, "bp-airline-changes").text
    assert "Aceita" in section and "Sem resposta" not in section
    assert not browser_pt_br.find_elements(By.CSS_SELECTOR, ".bp-airline-change-open")
    first = browser_pt_br.find_element(By.CSS_SELECTOR, "#bp-itinerary .bp-segment").text
    assert new_time in first
