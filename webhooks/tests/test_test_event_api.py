"""`POST /api/v1/webhooks/:id/test`: a signed test event sent during the request, answered
with the receiver's outcome (200 whatever it was); one attempt, never retried, counted toward
nothing; limited per webhook; scoped to the key's team and mode."""

import socket

import orjson
import pytest
from django.core import mail

from agencies.services import api_key_create
from tests.kit.factories import SECRET, make_endpoint
from tests.kit.receiver import verify_signature
from webhooks.models import Delivery, DeliveryAttempt, EventType
from webhooks.services import deliveries_sweep, delivery_attempt

pytestmark = pytest.mark.django_db

# Not UTF-8, with a NUL (which no PostgreSQL text column takes).
UNREADABLE = b"\xff\xfe not utf-8 \x00\xc3"


def send_test(client, endpoint, **headers):
    return client.post(f"/api/v1/webhooks/{endpoint.pk}/test", format="json", **headers)


def closed_port_url() -> str:
    """An https URL on loopback where nothing listens: the receiver is down."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"https://127.0.0.1:{port}/hooks"


def test_a_test_event_is_sent_signed_and_answered_with_the_receivers_outcome(
    team, live_client, https_receiver
):
    https_receiver.respond("/hooks", status=200, body=b'{"received": true}')
    endpoint = make_endpoint(team, https_receiver.url)

    response = send_test(live_client, endpoint)

    assert response.status_code == 200
    data = response.json()["data"]
    (request,) = https_receiver.requests
    payload = orjson.loads(request.body)
    assert payload["type"] == EventType.WEBHOOK_TEST
    assert payload["data"]["object"]["message"] == "A test event sent through the API."
    assert verify_signature(SECRET, request.headers, request.body)
    assert data["id"] == endpoint.pk and data["event_id"] == payload["id"]
    assert data["status"] == "succeeded"
    assert data["response_status"] == 200
    assert data["response_body_excerpt"] == '{"received": true}'
    assert data["error"] is None
    assert isinstance(data["latency_ms"], int) and data["latency_ms"] >= 0
    # Recorded where the panel's test is: a test delivery and its attempt.
    attempt = DeliveryAttempt.objects.get()
    assert attempt.delivery.is_test and attempt.duration_ms == data["latency_ms"]


def test_during_a_secrets_overlap_the_test_carries_both_signatures(
    team, live_client, https_receiver
):
    endpoint = make_endpoint(team, https_receiver.url)
    new = live_client.post(f"/api/v1/webhooks/{endpoint.pk}/rotate_secret").json()["data"]

    assert send_test(live_client, endpoint).json()["data"]["status"] == "succeeded"

    (request,) = https_receiver.requests
    assert verify_signature(new["secret"], request.headers, request.body)
    previous = {
        **request.headers,
        "X-Service-Signature": request.headers["X-Service-Signature-Previous"],
    }
    assert verify_signature(SECRET, previous, request.body)


@pytest.mark.parametrize(
    ("answer", "response_status", "error", "excerpt"),
    [
        ({"status": 500, "body": b"boom"}, 500, "HTTP 500", "boom"),
        ({"status": 200, "delay": 1.5}, None, "No answer within 1 s", ""),
        (None, None, "Connection failed: ConnectionError", ""),
        (
            {"status": 200, "body": b"\xff\xfe not utf-8 \xc3"},
            200,
            None,
            "\ufffd\ufffd not utf-8 \ufffd",
        ),
    ],
    ids=["5xx", "timeout", "receiver-down", "unreadable-body"],
)
def test_every_outcome_is_a_200_that_describes_it_and_counts_toward_nothing(
    team, live_client, https_receiver, settings, answer, response_status, error, excerpt
):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    if answer is None:
        url = closed_port_url()
    else:
        https_receiver.respond("/hooks", **answer)
        url = https_receiver.url
    # One failure away from deactivation: a failed test must not be that failure.
    endpoint = make_endpoint(team, url, consecutive_failures=5)

    response = send_test(live_client, endpoint)

    assert response.status_code == 200
    data = response.json()["data"]
    assert data["status"] == ("succeeded" if error is None else "failed")
    assert data["response_status"] == response_status
    assert data["error"] == error
    assert data["response_body_excerpt"] == excerpt
    delivery = Delivery.objects.get()
    assert delivery.is_test and delivery.next_attempt_at is None and not delivery.in_flight
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 5
    assert (endpoint.total_deliveries, endpoint.failed_deliveries) == (0, 0)
    assert deliveries_sweep() == 0 and delivery_attempt(delivery.pk) is None  # never retried
    assert DeliveryAttempt.objects.count() == 1
    assert mail.outbox == []


def test_a_private_address_is_refused_without_any_request(team, live_client):
    # No WEBHOOKS_ALLOWED_NETWORKS here: loopback is what an attacker's DNS would point at.
    endpoint = make_endpoint(team, closed_port_url())

    data = send_test(live_client, endpoint).json()["data"]

    assert data["status"] == "failed" and data["response_status"] is None
    assert data["error"] == "Refused: the URL resolves to a private or reserved address"


def test_an_inactive_webhook_is_tested_and_stays_inactive(team, live_client, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url, active=False, consecutive_failures=6)

    assert send_test(live_client, endpoint).json()["data"]["status"] == "succeeded"

    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.consecutive_failures == 6


def test_tests_are_limited_per_webhook_per_minute(team, live_client, https_receiver, settings):
    settings.API_WEBHOOK_TEST_RATE_LIMIT = "2/minute"
    endpoint = make_endpoint(team, https_receiver.url)
    other = make_endpoint(team, https_receiver.url + "?other")

    answers = [send_test(live_client, endpoint) for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 429]
    error = answers[2].json()["error"]
    assert (error["code"], error["message"]) == ("rate_limited", "Rate limit exceeded")
    assert 1 <= int(answers[2].headers["Retry-After"]) <= 60
    assert len(https_receiver.requests) == 2  # the refused one sent nothing
    assert send_test(live_client, other).status_code == 200  # another webhook has its own


def test_a_replay_with_the_same_idempotency_key_sends_nothing_again(
    team, live_client, https_receiver
):
    endpoint = make_endpoint(team, https_receiver.url)

    first = send_test(live_client, endpoint, HTTP_IDEMPOTENCY_KEY="test-1")
    again = send_test(live_client, endpoint, HTTP_IDEMPOTENCY_KEY="test-1")

    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["data"] == first.json()["data"]
    assert len(https_receiver.requests) == 1


def test_another_teams_or_the_other_modes_webhook_is_not_found(
    team, live_client, test_client, other_team, https_receiver
):
    theirs = make_endpoint(other_team, https_receiver.url)
    ours_live = make_endpoint(team, https_receiver.url)

    for client, endpoint in ((live_client, theirs), (test_client, ours_live)):
        response = send_test(client, endpoint)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "webhook_not_found"
    assert https_receiver.requests == [] and not Delivery.objects.exists()


def test_a_restricted_key_needs_webhooks_write(team, https_receiver):
    from rest_framework.test import APIClient

    endpoint = make_endpoint(team, https_receiver.url)
    _, secret = api_key_create(team=team, live_mode=True, permissions=["webhooks:read"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")

    response = send_test(client, endpoint)

    assert response.status_code == 403
    assert response.json()["error"]["details"] == {"permission": ["webhooks:write"]}
    assert https_receiver.requests == []
