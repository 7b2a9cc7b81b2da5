"""The panel in a real browser (headless Chromium): an agency user logs in, finds their
deactivated webhook, reactivates it (after a confirmation page), and cannot see another team's
webhooks."""

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.kit.browsers import PASSWORD, needs_chromium
from tests.kit.factories import make_endpoint, make_team
from webhooks.models import WebhookEndpoint

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_agency_user_reactivates_a_deactivated_webhook_and_sees_only_their_own(
    live_server, browser, https_receiver
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait

    mine = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    theirs = make_team("Beta Tours", owner_email="bob@beta.example")
    broken = make_endpoint(
        mine.team,
        https_receiver.url,  # reactivating tests it first: it answers 200
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now(),
    )
    make_endpoint(mine.team, "https://hooks.alpha.example/fine")
    secret_one = make_endpoint(theirs.team, "https://hooks.beta.example/private")

    browser.get(live_server.url + reverse("admin:login"))
    browser.find_element(By.NAME, "username").send_keys("ana@alpha.example")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    wait = WebDriverWait(browser, 20)
    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))

    browser.get(live_server.url + reverse("admin:webhooks_webhookendpoint_changelist"))
    page = browser.page_source
    assert https_receiver.url in page and "hooks.alpha.example/fine" in page
    assert "hooks.beta.example" not in page

    # Find the deactivated one with the "Active: No" filter, select it, run the action. (This
    # browser asks for English: the panel answers in English; panel/test_browser_pt_br.py is the
    # Portuguese one.)
    browser.find_element(By.LINK_TEXT, "No").click()
    wait.until(EC.url_contains("active__exact=0"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
    assert len(rows) == 1 and https_receiver.url in rows[0].text
    rows[0].find_element(By.CSS_SELECTOR, "input.action-select").click()
    Select(browser.find_element(By.NAME, "action")).select_by_value("reactivate")
    browser.find_element(By.NAME, "index").click()

    # A confirmation page first, then "Yes, I'm sure".
    wait.until(EC.presence_of_element_located((By.ID, "confirm-rows")))
    assert https_receiver.url in browser.find_element(By.ID, "confirm-rows").text
    assert not WebhookEndpoint.objects.get(pk=broken.pk).active
    browser.find_element(By.ID, "confirm-submit").click()

    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "ul.messagelist"), "Reactivated"))
    assert f"Reactivated {https_receiver.url}." in browser.page_source
    broken.refresh_from_db()
    assert broken.active and broken.consecutive_failures == 0
    assert broken.deactivated_at is None

    # Another team's webhook cannot be opened by its address either.
    browser.get(
        live_server.url + reverse("admin:webhooks_webhookendpoint_change", args=[secret_one.pk])
    )
    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))
    assert "hooks.beta.example" not in browser.page_source
    assert WebhookEndpoint.objects.get(pk=secret_one.pk).active
