"""The webhook portal (issue 14): an endpoint's health, the attempt log, "send a test event",
"reactivate" (a test first), "recover since…", "redeliver" on a delivery's page; their failure
paths (receiver down, timeout, 5xx; another team's endpoint) and the regression of a
reactivated endpoint deactivated again 25 s later by attempts made before the reactivation."""

import socket
from datetime import timedelta
from zoneinfo import ZoneInfo

import orjson
import pytest
from django.core import mail
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from tests.kit.factories import SECRET, make_endpoint, record
from tests.kit.panel import browser_for
from tests.kit.receiver import verify_signature
from webhooks.display import endpoint_health, parse_brasilia
from webhooks.models import Delivery, DeliveryAttempt, EventType, WebhookEndpoint
from webhooks.services import (
    deliveries_sweep,
    delivery_attempt,
    delivery_send,
    webhook_test_now,
    webhook_update,
)
from webhooks.services.deliveries import delivery_claim

pytestmark = pytest.mark.django_db
BRASILIA = ZoneInfo("America/Sao_Paulo")


def page_of(endpoint, view="change"):
    return reverse(f"admin:webhooks_webhookendpoint_{view}", args=[endpoint.pk])


def closed_port_url() -> str:
    """An https URL on loopback where nothing listens: the receiver is down."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"https://127.0.0.1:{port}/hooks"


def deactivated(team, url, **fields):
    return make_endpoint(
        team,
        url,
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now() - timedelta(hours=2),
        **fields,
    )


# --- Attempts keep their request ----------------------------------------------------------


def test_an_attempt_keeps_the_headers_it_sent(
    team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
    attempt = DeliveryAttempt.objects.get()
    (received,) = https_receiver.requests

    for name in ("X-Service-Signature", "X-Service-Timestamp", "X-Service-Event-Id"):
        assert attempt.request_headers[name] == received.headers[name]
    assert attempt.request_headers["User-Agent"] == received.headers["User-Agent"]


# --- Health -------------------------------------------------------------------------------


def test_the_endpoint_page_shows_why_and_when_it_was_deactivated_and_its_health(
    team, team_owner, https_receiver, django_capture_on_commit_callbacks
):
    https_receiver.respond("/down", status=503, body=b"maintenance")
    endpoint = make_endpoint(team, https_receiver.url_for("/down"))
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
        record(team)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        active=False, consecutive_failures=6, deactivated_at=timezone.now()
    )
    endpoint.refresh_from_db()

    health = endpoint_health(endpoint)
    assert (health.active, health.reason) == (False, "failures")
    assert (health.attempts_24h, health.success_rate_24h) == (2, 0.0)
    assert health.last_error.error == "HTTP 503" and health.waiting == 2

    html = browser_for(team_owner).get(page_of(endpoint)).content.decode()
    assert "Desativado automaticamente em" in html and "6 tentativas" in html
    assert "horário de Brasília" in html
    assert "HTTP 503" in html
    assert "2 entregas aguardam a reativação" in html


def test_an_active_endpoint_shows_its_success_rate_and_next_retry(
    team, team_owner, https_receiver, django_capture_on_commit_callbacks
):
    https_receiver.respond("/flaky", status=500)
    endpoint = make_endpoint(team, https_receiver.url_for("/flaky"))
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
    https_receiver.respond("/flaky", status=200)
    with django_capture_on_commit_callbacks(execute=True):
        record(team)

    health = endpoint_health(endpoint)
    assert health.success_rate_24h == 50.0
    retry = Delivery.objects.get(status=Delivery.Status.PENDING).next_attempt_at
    assert health.next_retry == retry

    html = browser_for(team_owner).get(page_of(endpoint)).content.decode()
    assert "50,00 %" in html and "(1 de 2 tentativas aceitas)" in html
    assert "Ativo" in html


# --- Send a test event --------------------------------------------------------------------


def test_a_test_event_answer_is_shown_on_the_page(team, team_owner, https_receiver):
    https_receiver.respond("/hooks", status=200, body=b'{"received": true}')
    endpoint = make_endpoint(team, https_receiver.url)
    browser = browser_for(team_owner)

    response = browser.post(page_of(endpoint, "test"), follow=True)

    html = response.content.decode()
    assert 'id="test-answer"' in html
    assert "HTTP 200" in html and "{&quot;received&quot;: true}" in html
    (request,) = https_receiver.requests
    assert orjson.loads(request.body)["type"] == "webhook.test"
    assert verify_signature(SECRET, request.headers, request.body)
    assert request.headers["X-Service-Signature"] in html  # the request's headers as sent
    delivery = Delivery.objects.get()
    assert delivery.is_test and delivery.status == Delivery.Status.SUCCEEDED


@pytest.mark.parametrize(
    ("answer", "expected_error", "shown"),
    [
        ({"status": 500, "body": b"boom"}, "HTTP 500", "HTTP 500"),
        ({"status": 200, "delay": 1.5}, "No answer within 1 s", "Sem resposta em 1 s"),
        (None, "Connection failed", "Falha na conexão"),
    ],
    ids=["5xx", "timeout", "receiver-down"],
)
def test_a_failed_test_is_one_attempt_never_retried_and_counts_toward_nothing(
    team, team_owner, https_receiver, settings, answer, expected_error, shown
):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    if answer is None:
        url = closed_port_url()
    else:
        https_receiver.respond("/hooks", **answer)
        url = https_receiver.url
    # One failure away from deactivation: a failed test must not be that failure.
    endpoint = make_endpoint(team, url, consecutive_failures=5)

    html = browser_for(team_owner).post(page_of(endpoint, "test"), follow=True).content.decode()

    assert shown in html and "answer-failed" in html  # stored in English, shown in Portuguese
    attempt = DeliveryAttempt.objects.get()
    assert not attempt.succeeded and attempt.error.startswith(expected_error)
    delivery = attempt.delivery
    assert delivery.is_test and delivery.status == Delivery.Status.FAILED
    assert delivery.next_attempt_at is None and not delivery.in_flight
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 5
    assert (endpoint.total_deliveries, endpoint.failed_deliveries) == (0, 0)
    assert deliveries_sweep() == 0 and delivery_attempt(delivery.pk) is None  # never retried
    assert mail.outbox == []


def test_a_test_is_sent_to_a_deactivated_endpoint_without_reactivating_it(team, https_receiver):
    endpoint = deactivated(team, https_receiver.url)
    attempt = webhook_test_now(endpoint=endpoint)
    assert attempt.succeeded
    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.consecutive_failures == 6


# --- Reactivate ---------------------------------------------------------------------------


def test_reactivate_sends_a_test_first_and_reactivates_when_it_is_accepted(
    team, team_owner, https_receiver
):
    endpoint = deactivated(team, https_receiver.url)

    response = browser_for(team_owner).post(page_of(endpoint, "reactivate"), follow=True)

    html = response.content.decode()
    assert "as falhas voltam a contar do zero" in html
    assert 'id="test-answer"' in html and "HTTP 200" in html
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0
    assert endpoint.reactivated_at is not None and endpoint.deactivated_at is None
    (request,) = https_receiver.requests
    assert orjson.loads(request.body)["type"] == "webhook.test"


def test_reactivate_with_a_failing_test_asks_and_can_keep_it_deactivated(
    team, team_owner, https_receiver
):
    https_receiver.respond("/hooks", status=502, body=b"bad gateway")
    endpoint = deactivated(team, https_receiver.url)
    browser = browser_for(team_owner)

    page = browser.post(page_of(endpoint, "reactivate"))

    html = page.content.decode()
    assert page.status_code == 200 and "HTTP 502" in html and "bad gateway" in html
    assert "Reativar mesmo assim" in html and "Manter desativado" in html
    endpoint.refresh_from_db()
    assert not endpoint.active  # nothing changes until the user chooses

    browser.post(page_of(endpoint, "reactivate"), {"anyway": "yes"})
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0


def test_reactivate_when_the_receiver_is_down_shows_the_connection_error(
    team, team_owner, settings
):
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    endpoint = deactivated(team, closed_port_url())
    html = browser_for(team_owner).post(page_of(endpoint, "reactivate")).content.decode()
    assert "Falha na conexão" in html and "Reativar mesmo assim" in html
    endpoint.refresh_from_db()
    assert not endpoint.active


# --- The 25-second re-deactivation --------------------------------------------------------


def test_attempts_made_before_a_reactivation_never_deactivate_it_again(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    """The bug: attempts in flight when the endpoint was deactivated failed after the user
    reactivated it, counted as new consecutive failures, and deactivated it again (with a
    second alert) 25 s later."""
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 10
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 10  # six in flight at once, one team
    https_receiver.respond("/hooks", status=500)
    endpoint = make_endpoint(team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=False):  # recorded, not yet sent
        for _ in range(6):
            record(team)
    in_flight = [delivery_claim(d.pk) for d in Delivery.objects.order_by("pk")]
    assert all(in_flight)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        active=False, consecutive_failures=6, deactivated_at=timezone.now()
    )
    with django_capture_on_commit_callbacks(execute=False):
        webhook_update(endpoint=WebhookEndpoint.objects.get(pk=endpoint.pk), active=True)

    for delivery in in_flight:  # their answers come back after the reactivation
        delivery_send(delivery)

    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0
    assert endpoint.failed_deliveries == 6  # still on record
    assert mail.outbox == []


def test_failures_after_a_reactivation_count_from_zero(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_FAILURES_BEFORE_DEACTIVATION = 3
    https_receiver.respond("/hooks", status=500)
    endpoint = deactivated(team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=False):
        webhook_update(endpoint=endpoint, active=True)
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
        record(team)
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 2
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
    endpoint.refresh_from_db()
    assert not endpoint.active  # the third failure since the reactivation


def test_waiting_deliveries_restart_their_attempt_count_on_reactivation(
    team, https_receiver, django_capture_on_commit_callbacks
):
    endpoint = deactivated(team, https_receiver.url, events=["wallet.credit"])
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=True)
    with django_capture_on_commit_callbacks(execute=False):
        record(team)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=False)
    Delivery.objects.update(attempt_count=5, next_attempt_at=timezone.now() + timedelta(hours=5))

    with django_capture_on_commit_callbacks(execute=False) as queued:
        webhook_update(endpoint=WebhookEndpoint.objects.get(pk=endpoint.pk), active=True)

    delivery = Delivery.objects.get()
    assert delivery.attempt_count == 0 and delivery.next_attempt_at <= timezone.now()
    assert len(queued) == 1
    for callback in queued:
        callback()
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SUCCEEDED
    assert delivery.attempts.get().number == 1


# --- Recover since… -----------------------------------------------------------------------


def test_parse_brasilia_reads_dd_mm_yyyy_hh_mm_in_sao_paulo_time():
    moment = parse_brasilia("25/11/2026 14:30")
    assert moment.astimezone(ZoneInfo("UTC")).strftime("%Y-%m-%d %H:%M") == "2026-11-25 17:30"


def test_recover_since_redelivers_events_missed_while_disabled(
    team, team_owner, https_receiver, django_capture_on_commit_callbacks
):
    endpoint = make_endpoint(team, https_receiver.url, active=False, paused_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        before = record(team)
    cutoff = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        missed = [record(team), record(team)]
        record(team, type=EventType.BOOKING_CREATED)  # not subscribed
    assert Delivery.objects.count() == 0  # disabled: nothing was queued for it
    type(before).objects.filter(pk=before.pk).update(
        created_at=F("created_at") - timedelta(minutes=5)
    )
    browser = browser_for(team_owner)
    with django_capture_on_commit_callbacks(execute=False):
        webhook_update(endpoint=endpoint, active=True)
    since = timezone.localtime(cutoff - timedelta(minutes=1), BRASILIA).strftime("%d/%m/%Y %H:%M")

    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(page_of(endpoint, "recover"), {"since": since}, follow=True)

    html = response.content.decode()
    assert "2 eventos desde" in html
    delivered = {r.headers["X-Service-Event-Id"] for r in https_receiver.requests}
    assert delivered == {e.id for e in missed}
    assert response.request["PATH_INFO"] == page_of(endpoint, "attempts")


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("2026-11-25 14:30", "dd/mm/aaaa hh:mm"), ("01/01/2020 00:00", "Os eventos são mantidos")],
)
def test_recover_rejects_a_badly_typed_or_too_old_time(
    team, team_owner, https_receiver, typed, expected
):
    endpoint = make_endpoint(team, https_receiver.url)
    response = browser_for(team_owner).post(
        page_of(endpoint, "recover"), {"since": typed}, follow=True
    )
    assert expected in response.content.decode()
    assert https_receiver.requests == []


def test_recover_on_a_disabled_endpoint_asks_to_reactivate_first(team, team_owner, https_receiver):
    endpoint = deactivated(team, https_receiver.url)
    since = timezone.localtime(timezone.now() - timedelta(hours=1), BRASILIA).strftime(
        "%d/%m/%Y %H:%M"
    )
    response = browser_for(team_owner).post(
        page_of(endpoint, "recover"), {"since": since}, follow=True
    )
    assert "Reative o webhook antes" in response.content.decode()


# --- The attempt log ----------------------------------------------------------------------


def _attempts(endpoint, team, count, *, succeeded=True, type=EventType.WALLET_CREDIT, at=None):
    at = at or timezone.now()
    event = record(team, type=type)
    delivery = Delivery.objects.create(event=event, endpoint=endpoint, status="succeeded")
    DeliveryAttempt.objects.bulk_create(
        DeliveryAttempt(
            delivery=delivery,
            number=1,
            attempted_at=at - timedelta(seconds=i),
            succeeded=succeeded,
            status_code=200 if succeeded else 500,
            duration_ms=12,
            error="" if succeeded else "HTTP 500",
            request_headers={"X-Service-Event-Id": event.id},
        )
        for i in range(count)
    )
    return event


def test_the_attempt_log_is_paginated_and_filtered(team, team_owner):
    endpoint = make_endpoint(team, "https://hooks.alpha.example/x", active=False)
    _attempts(endpoint, team, 55)
    failed = _attempts(endpoint, team, 3, succeeded=False, type=EventType.BOOKING_CREATED)
    old = timezone.now() - timedelta(days=3)
    _attempts(endpoint, team, 2, succeeded=False, at=old)
    browser = browser_for(team_owner)
    log = page_of(endpoint, "attempts")

    first = browser.get(log)
    assert len(first.context["rows"]) == 50 and first.context["page"].paginator.count == 60
    second = browser.get(log, {"page": 2})
    assert len(second.context["rows"]) == 10

    failures = browser.get(log, {"status": "failed"}).context["rows"]
    assert len(failures) == 5 and not any(r["attempt"].succeeded for r in failures)
    typed = browser.get(log, {"type": "booking.created"}).context["rows"]
    assert {r["delivery"].event_id for r in typed} == {failed.id}
    until = timezone.localtime(old + timedelta(minutes=1), BRASILIA).strftime("%d/%m/%Y %H:%M")
    older = browser.get(log, {"until": until, "status": "failed"})
    assert len(older.context["rows"]) == 2
    html = browser.get(log, {"type": "booking.created"}).content.decode()
    assert failed.id in html and "X-Service-Event-Id" in html and "HTTP 500" in html
    assert '"type":"booking.created"' in html.replace("&quot;", '"')  # the body as sent


# --- Redeliver on the delivery page -------------------------------------------------------


def test_the_delivery_page_redelivers(
    team, team_owner, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        event = record(team)
    delivery = Delivery.objects.get()
    browser = browser_for(team_owner)
    page = reverse("admin:webhooks_delivery_change", args=[delivery.pk])
    assert 'id="redeliver"' in browser.get(page).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        browser.post(reverse("admin:webhooks_delivery_redeliver", args=[delivery.pk]))

    assert [r.headers["X-Service-Event-Id"] for r in https_receiver.requests] == [event.id] * 2


# --- Another team's endpoint --------------------------------------------------------------


def test_an_agency_user_cannot_touch_another_teams_endpoint(
    team_owner, other_team, https_receiver, django_capture_on_commit_callbacks
):
    theirs = deactivated(other_team, https_receiver.url)
    WebhookEndpoint.objects.filter(pk=theirs.pk).update(active=True)
    with django_capture_on_commit_callbacks(execute=True):
        record(other_team)
    WebhookEndpoint.objects.filter(pk=theirs.pk).update(active=False)
    delivery = Delivery.objects.get()
    https_receiver.reset()
    browser = browser_for(team_owner)
    since = timezone.localtime(timezone.now() - timedelta(hours=1), BRASILIA).strftime(
        "%d/%m/%Y %H:%M"
    )

    for view, data in (
        ("test", {}),
        ("reactivate", {"anyway": "yes"}),
        ("recover", {"since": since}),
    ):
        assert browser.post(page_of(theirs, view), data).status_code == 404
    assert browser.get(page_of(theirs, "attempts")).status_code == 404
    redeliver = reverse("admin:webhooks_delivery_redeliver", args=[delivery.pk])
    assert browser.post(redeliver).status_code == 404

    assert https_receiver.requests == []
    theirs.refresh_from_db()
    assert not theirs.active
    assert delivery.attempts.count() == 1
