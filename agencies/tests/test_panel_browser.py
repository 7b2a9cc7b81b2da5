"""In a real browser (headless Chromium): an agency user revokes an API key. A confirmation page
comes first; after "Yes", the revocation is in the key's history with the user's name."""

import os

import pytest
from django.urls import reverse

from agencies.models import ApiKey, User
from tests.kit.browsers import PASSWORD, needs_chromium
from tests.kit.factories import make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = os.environ.get("PANEL_SCREENSHOTS")  # a folder: save what the browser saw


def snap(driver, name):
    if SCREENSHOTS:
        driver.set_window_size(1440, 1000)
        driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))


def test_agency_user_revokes_a_key_after_confirming_and_finds_it_in_its_history(
    live_server,
    browser,
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait

    mine = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    User.objects.filter(pk=mine.owner.pk).update(first_name="Ana", last_name="Lima")
    key = ApiKey.objects.get(team=mine.team, live_mode=True)
    wait = WebDriverWait(browser, 20)

    browser.get(live_server.url + reverse("admin:login"))
    browser.find_element(By.NAME, "username").send_keys("ana@alpha.example")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))

    browser.get(live_server.url + reverse("admin:agencies_apikey_changelist"))
    wait.until(EC.presence_of_element_located((By.ID, "result_list")))
    row = next(
        r
        for r in browser.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
        if key.display_prefix in r.text
    )
    row.find_element(By.CSS_SELECTOR, "input.action-select").click()
    Select(browser.find_element(By.NAME, "action")).select_by_value("revoke")
    browser.find_element(By.NAME, "index").click()

    # The confirmation page: what will happen, and nothing has happened yet.
    wait.until(EC.presence_of_element_located((By.ID, "confirm-rows")))
    snap(browser, "confirm-revoke")
    effect = browser.find_element(By.CSS_SELECTOR, ".confirm-effect").text
    assert key.display_prefix in effect and "cannot be undone" in effect
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None

    browser.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "ul.messagelist"), "Revoked"))
    assert ApiKey.objects.get(pk=key.pk).revoked_at is not None

    # The key's page → History: the revocation with who did it, old and new values.
    browser.get(live_server.url + reverse("admin:agencies_apikey_change", args=[key.pk]))
    browser.find_element(By.CSS_SELECTOR, "a.historylink").click()
    wait.until(EC.presence_of_element_located((By.ID, "audit-entries")))
    snap(browser, "key-history")
    newest = browser.find_elements(By.CSS_SELECTOR, "#audit-entries tr.audit-entry")[0]
    assert "Ana Lima" in newest.find_element(By.CSS_SELECTOR, ".audit-actor").text
    assert "Revoked API key" in newest.find_element(By.CSS_SELECTOR, ".audit-action").text
    changes = newest.find_element(By.CSS_SELECTOR, ".audit-changes").text
    assert "Revoked at" in changes and "—" in changes  # was empty, now a time
