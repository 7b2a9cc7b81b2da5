"""The webhook portal in a real Chromium with a pt-BR language setting, against the local HTTPS
receiver: an agency user reactivates their endpoint (a test first), recovers the events it
missed while it was disabled and sees them delivered; a test event's answer appears on the page.
With PANEL_SCREENSHOTS=<folder> it saves webhook-health-1440, webhook-recover-1440 and
webhook-attempts-1440 (docs/screenshots/)."""

from datetime import timedelta

import orjson
import pytest
from django.urls import reverse
from django.utils import timezone

from tests.kit.browsers import DESKTOP, PASSWORD, log_in, needs_chromium, screenshot
from tests.kit.factories import make_endpoint, make_team, record
from webhooks.models import Delivery, DeliveryAttempt, EventType, WebhookEndpoint

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def a_disabled_endpoint_with_history(url: str):
    """Alpha Travel's endpoint, deactivated two hours ago after six failed attempts; three
    wallet events happened since, which it never got."""
    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    now = timezone.now()
    endpoint = make_endpoint(
        made.team,
        url,
        events=["wallet.credit", "booking.ticketed"],
        active=False,
        consecutive_failures=6,
        deactivated_at=now - timedelta(hours=2),
        last_deactivated_at=now - timedelta(hours=2),
        total_deliveries=6,
        failed_deliveries=6,
        last_triggered_at=now - timedelta(hours=2),
    )
    earlier = [record(made.team) for _ in range(6)]
    Delivery.objects.bulk_create(
        Delivery(event=e, endpoint=endpoint, status=Delivery.Status.FAILED, attempt_count=1)
        for e in earlier
    )
    for i, delivery in enumerate(Delivery.objects.filter(endpoint=endpoint).order_by("pk")):
        DeliveryAttempt.objects.create(
            delivery=delivery,
            number=1,
            attempted_at=now - timedelta(hours=2, minutes=10 - i),
            succeeded=False,
            status_code=503,
            duration_ms=41 + i,
            error="HTTP 503",
            response_excerpt='{"error": "maintenance"}',
            request_headers={
                "Content-Type": "application/json",
                "X-Service-Event-Id": delivery.event_id,
            },
        )
    type(earlier[0]).objects.filter(pk__in=[e.pk for e in earlier]).update(
        created_at=now - timedelta(hours=2, minutes=30)
    )
    missed = [record(made.team, data={"object": "transaction", "id": f"txn_{n}"}) for n in range(3)]
    record(made.team, type=EventType.BOOKING_CREATED)  # not subscribed: never delivered
    return endpoint, missed


def test_an_agency_user_recovers_the_events_missed_while_disabled(
    live_server,
    browser_pt_br,
    https_receiver,
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    endpoint, missed = a_disabled_endpoint_with_history(https_receiver.url)
    assert not Delivery.objects.filter(event__in=missed).exists()
    wait = WebDriverWait(browser_pt_br, 30)
    log_in(live_server, browser_pt_br, wait)

    page = reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    browser_pt_br.get(live_server.url + page)
    wait.until(EC.presence_of_element_located((By.ID, "webhook-health")))
    state = browser_pt_br.find_element(By.ID, "health-state").text
    assert "Desativado automaticamente em" in state and "horário de Brasília" in state
    assert "HTTP 503" in browser_pt_br.find_element(By.ID, "health-last-error").text
    assert "0,00 %" in browser_pt_br.find_element(By.ID, "health-rate").text
    screenshot(browser_pt_br, "webhook-health-1440", DESKTOP)

    # Reactivate: a test first; the receiver accepts it, so the endpoint is active again.
    browser_pt_br.find_element(By.ID, "reactivate").click()
    wait.until(EC.presence_of_element_located((By.ID, "test-answer")))
    messages = browser_pt_br.find_element(By.CSS_SELECTOR, "ul.messagelist").text
    assert "as falhas voltam a contar do zero" in messages
    assert "HTTP 200" in browser_pt_br.find_element(By.ID, "test-answer").text
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).active

    # Recover since the deactivation: the field suggests that moment, in Brasília time.
    since = browser_pt_br.find_element(By.ID, "recover-since")
    suggested = timezone.localtime(endpoint.deactivated_at).strftime("%d/%m/%Y %H:%M")
    assert since.get_attribute("value") == suggested
    screenshot(browser_pt_br, "webhook-recover-1440", DESKTOP)
    browser_pt_br.find_element(By.ID, "recover-submit").click()

    wait.until(EC.presence_of_element_located((By.ID, "attempt-log")))
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "ul.messagelist"), "3 eventos"))
    delivered = [
        orjson.loads(r.body)["id"]
        for r in https_receiver.requests
        if orjson.loads(r.body)["type"] == "wallet.credit"
    ]
    assert sorted(delivered) == sorted(e.id for e in missed)
    rows = browser_pt_br.find_elements(By.CSS_SELECTOR, "#attempt-log tr.attempt-row")
    recovered = [r for r in rows if any(e.id in r.text for e in missed)]
    assert len(recovered) == 3
    assert all(r.get_attribute("data-status") == "succeeded" for r in recovered)
    assert all("Sucesso" in r.text or "Entregue" in r.text for r in recovered)

    # Each attempt opens on its request and the receiver's answer.
    browser_pt_br.find_element(By.CSS_SELECTOR, "#attempt-log details summary").click()
    detail = browser_pt_br.find_element(By.CSS_SELECTOR, "#attempt-log details .attempt-detail")
    wait.until(lambda _: detail.is_displayed())
    assert "X-Service-Signature" in detail.text and "HTTP 200" in detail.text
    screenshot(browser_pt_br, "webhook-attempts-1440", DESKTOP)


def test_a_test_events_answer_appears_on_the_page(
    live_server,
    browser_pt_br,
    https_receiver,
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    https_receiver.respond("/alpha", status=202, body=b'{"accepted": "evt-check"}')
    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    endpoint = make_endpoint(made.team, https_receiver.url_for("/alpha"))
    wait = WebDriverWait(browser_pt_br, 30)
    log_in(live_server, browser_pt_br, wait)

    browser_pt_br.get(
        live_server.url + reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    )
    wait.until(EC.element_to_be_clickable((By.ID, "send-test"))).click()

    wait.until(EC.presence_of_element_located((By.ID, "test-answer")))
    answer = browser_pt_br.find_element(By.ID, "test-answer").text
    assert "HTTP 202" in answer and '{"accepted": "evt-check"}' in answer
    assert "Resposta ao evento de teste" in answer
    assert "O receptor aceitou o evento de teste (HTTP 202)." in browser_pt_br.page_source
    (request,) = https_receiver.requests
    assert orjson.loads(request.body)["type"] == "webhook.test"
    delivery = Delivery.objects.get(endpoint=endpoint)
    assert delivery.is_test and delivery.attempts.count() == 1
