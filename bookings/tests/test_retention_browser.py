"""The panel in a real browser: a booking whose passengers' data was erased shows the marker,
its amounts and references, and nothing of the passenger."""

import os
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from rest_framework.test import APIClient

from bookings.models import Booking
from bookings.retention import booking_personal_data_erase
from bookings.tests.helpers import book, holdable
from tests.kit.browsers import PASSWORD, needs_chromium
from tests.kit.factories import make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

SCREENSHOT = os.environ.get("PANEL_SCREENSHOT_DIR")


@pytest.mark.usefixtures("live_sandbox")  # live keys book the sandbox here
def test_an_erased_booking_in_the_panel(live_server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    booking = Booking.objects.get(pk=book(client, holdable(client)).json()["id"])
    with time_machine.travel(booking.departing_at + timedelta(days=400)):
        assert booking_personal_data_erase(booking=booking)

    browser.get(live_server.url + reverse("admin:login"))
    browser.find_element(By.NAME, "username").send_keys("ana@alpha.example")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    wait = WebDriverWait(browser, 20)
    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))
    browser.get(live_server.url + reverse("admin:bookings_booking_change", args=[booking.pk]))
    wait.until(EC.presence_of_element_located((By.ID, "passengers-group")))

    page = browser.find_element(By.TAG_NAME, "body").text
    if SCREENSHOT:
        browser.set_window_size(1280, 2000)
        browser.save_screenshot(os.path.join(SCREENSHOT, "erased-booking.png"))
    assert "[erased]" in page and booking.booking_reference in page
    assert "Personal data erased at" in page
    assert "Souza" not in page and "ana@example.com" not in page and "1990" not in page
