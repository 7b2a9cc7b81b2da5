"""In a real browser (headless Chromium, pt-BR, desktop and phone widths): an agency owner sees
the team's API version, reads what the upgrade changes, confirms it, and the team is on the
latest version; a webhook's page shows the version its deliveries are rendered in."""

import os

import pytest
from django.urls import reverse

from tests.kit.browsers import DESKTOP, PASSWORD, PHONE, log_in, needs_chromium
from tests.kit.factories import make_endpoint, make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = os.environ.get("PANEL_SCREENSHOTS")  # a folder: save what the browser saw


def snap(driver, name, *, near=None):
    """Both widths; `near`: a CSS selector of an element scrolled into view first."""
    if not SCREENSHOTS:
        return
    for label, (width, height) in (("1440", DESKTOP), ("390", PHONE)):
        driver.set_window_size(width, height)
        if near:
            driver.execute_script(
                "document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", near
            )
        driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{label}.png"))
    driver.set_window_size(*DESKTOP)


def test_an_owner_upgrades_the_teams_api_version_after_reading_what_changes(
    live_server, browser_pt_br
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    created = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    team = created.team
    team.api_version = "2026-11-22"
    team.save()
    endpoint = make_endpoint(
        team,
        "https://hooks.alpha.example/webhooks",
        events=["booking.created"],
        api_version="2026-11-22",
    )
    browser, wait = browser_pt_br, WebDriverWait(browser_pt_br, 20)
    log_in(live_server, browser, wait)

    browser.get(live_server.url + reverse("admin:agencies_team_change", args=[team.pk]))
    wait.until(EC.presence_of_element_located((By.ID, "api-version-upgrade")))
    assert browser.find_element(By.ID, "api-version").text == "2026-11-22"
    snap(browser, "team-api-version", near="#api-version-upgrade")

    browser.find_element(By.ID, "api-version-upgrade").click()
    wait.until(EC.presence_of_element_located((By.ID, "api-version-changes")))
    changes = browser.find_element(By.ID, "api-version-changes").text
    assert "2026-11-28" in changes and "total_currency" in changes
    webhooks = browser.find_element(By.ID, "api-version-webhooks").text
    assert "https://hooks.alpha.example/webhooks: 2026-11-22" in webhooks
    snap(browser, "team-api-version-confirm", near="#confirm-submit")
    team.refresh_from_db()
    assert team.api_version == "2026-11-22"  # nothing happened yet

    browser.find_element(By.ID, "confirm-submit").click()
    wait.until(
        EC.text_to_be_present_in_element(
            (By.CSS_SELECTOR, "ul.messagelist"), "A versão da API da equipe agora é 2026-11-28."
        )
    )
    assert (
        "(a mais recente)"
        in browser.find_element(By.CSS_SELECTOR, ".field-api_version_display").text
    )
    assert not browser.find_elements(By.ID, "api-version-upgrade")
    team.refresh_from_db()
    assert team.api_version == "2026-11-28"

    # The webhook keeps its own version, shown on its page.
    browser.get(
        live_server.url + reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    )
    field = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".field-api_version")))
    assert "Versão da API" in field.text and "2026-11-22" in field.text
    snap(browser, "webhook-api-version", near=".field-api_version")
