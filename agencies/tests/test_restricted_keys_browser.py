"""In a real browser (headless Chromium, in Brazilian Portuguese): an agency user makes a
restricted API key in the panel, "Acesso total" checked until they choose otherwise, and finds
its permissions in the key list."""

import re

import pytest
from django.urls import reverse

from agencies.models import ApiKey, hash_secret
from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    console_errors,
    log_in,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.kit.factories import make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_an_agency_user_makes_a_restricted_key_in_portuguese(live_server, browser_pt_br):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    browser = browser_pt_br
    mine = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    wait = WebDriverWait(browser, 20)
    log_in(live_server, browser, wait)

    text = open_page(live_server, browser, wait, reverse("admin:agencies_apikey_add"))
    assert "Acesso total" in text and "Restrito: só as permissões marcadas abaixo" in text
    assert "Buscar voos e consultar ofertas" in text and "Consultar relatórios" in text
    full = browser.find_element(By.CSS_SELECTOR, "input[name=access][value=full]")
    assert full.is_selected()  # the default: what every key had before
    screenshot(browser, "api-key-add-pt-br", DESKTOP)

    browser.find_element(By.NAME, "name").send_keys("Só busca")
    browser.find_element(By.CSS_SELECTOR, "input[name=access][value=restricted]").click()
    for permission in ("flights:read", "bookings:read"):
        browser.find_element(
            By.CSS_SELECTOR, f"input[name=permissions][value='{permission}']"
        ).click()
    browser.find_element(By.NAME, "_save").click()
    wait.until(EC.presence_of_element_located((By.ID, "new-api-key")))
    secret = browser.find_element(By.ID, "new-api-key").text
    assert re.fullmatch(r"sk_test_[A-Za-z0-9]{40}", secret)
    key = ApiKey.objects.get(secret_hash=hash_secret(secret))
    assert key.team == mine.team and key.permissions == ["flights:read", "bookings:read"]

    listing = open_page(
        live_server, browser, wait, reverse("admin:agencies_apikey_changelist") + "?mode=test"
    )
    assert "flights:read, bookings:read" in listing and "Acesso total" in listing
    refused = [e for e in console_errors(browser) if "Content Security Policy" in e]
    assert refused == []  # the form needs no inline script or style
