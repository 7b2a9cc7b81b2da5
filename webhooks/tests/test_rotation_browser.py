"""Rolling a webhook's secret in a real Chromium with a pt-BR language setting: from the
endpoint's page to the confirmation, a wrong number of hours asked again, the new secret shown
once, and back on the endpoint's page the overlap's end; then a delivery verifies with either
secret. With PANEL_SCREENSHOTS=<folder> it saves webhook-rotate-{1440,390},
webhook-rotated-{1440,390} and webhook-overlap-{1440,390} (docs/screenshots/)."""

import pytest
from django.urls import reverse

from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    console_errors,
    log_in,
    needs_chromium,
    screenshot,
)
from tests.kit.factories import SECRET, make_endpoint, make_team
from tests.kit.receiver import verify_signature
from webhooks.display import format_brasilia
from webhooks.models import WebhookEndpoint
from webhooks.services import webhook_test_now

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_an_agency_user_rolls_the_secret_and_sees_it_once(
    live_server, browser_pt_br, https_receiver
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    endpoint = make_endpoint(
        made.team, https_receiver.url_for("/hooks/backoffice"), events=["booking.ticketed"]
    )
    wait = WebDriverWait(browser_pt_br, 30)
    log_in(live_server, browser_pt_br, wait)
    page = reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    browser_pt_br.get(live_server.url + page)

    wait.until(EC.element_to_be_clickable((By.ID, "rotate-secret-link"))).click()
    hours = wait.until(EC.presence_of_element_located((By.ID, "rotate-hours")))
    assert hours.get_attribute("value") == "24"
    assert "X-Service-Signature-Previous" in browser_pt_br.find_element(By.ID, "rotate-secret").text
    screenshot(browser_pt_br, "webhook-rotate-390", PHONE)
    screenshot(browser_pt_br, "webhook-rotate-1440", DESKTOP)

    # A number of hours past the week is asked again; nothing changes.
    hours.clear()
    hours.send_keys("200")
    browser_pt_br.find_element(By.ID, "rotate-confirm").click()
    error = wait.until(EC.presence_of_element_located((By.ID, "rotate-hours-error")))
    assert error.text == "Digite um número inteiro de horas, de 0 a 168."
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).secret == SECRET

    hours = browser_pt_br.find_element(By.ID, "rotate-hours")
    hours.clear()
    hours.send_keys("12")
    browser_pt_br.find_element(By.ID, "rotate-confirm").click()
    shown = wait.until(EC.presence_of_element_located((By.ID, "new-secret"))).text
    endpoint.refresh_from_db()
    assert shown == endpoint.secret and shown.startswith("whsec_")
    until = format_brasilia(endpoint.previous_secret_expires_at)
    assert until in browser_pt_br.find_element(By.ID, "previous-secret-until").text
    assert "não será mostrado novamente" in browser_pt_br.find_element(By.ID, "new-secret-box").text
    screenshot(browser_pt_br, "webhook-rotated-390", PHONE)
    screenshot(browser_pt_br, "webhook-rotated-1440", DESKTOP)
    refused = [e for e in console_errors(browser_pt_br) if "Content Security Policy" in e]
    assert refused == []  # no style refused by the panel's CSP

    browser_pt_br.find_element(By.ID, "back-to-webhook").click()
    note = wait.until(EC.presence_of_element_located((By.ID, "previous-secret-until")))
    assert until in note.text and "horário de Brasília" in note.text
    assert shown not in browser_pt_br.page_source  # never shown again
    screenshot(browser_pt_br, "webhook-overlap-390", PHONE)
    screenshot(browser_pt_br, "webhook-overlap-1440", DESKTOP)

    # A receiver with either secret accepts what is sent now.
    webhook_test_now(endpoint=endpoint)
    (request,) = https_receiver.requests
    assert verify_signature(shown, request.headers, request.body)
    previous = {**request.headers}
    previous["X-Service-Signature"] = previous.pop("X-Service-Signature-Previous")
    assert verify_signature(SECRET, previous, request.body)
