"""One reachability probe in flight per team: a probe holds a web worker for up to ~10 s, so a
second concurrent create (or URL change) of the same team is answered at once with
`429 probe_in_progress` and `Retry-After`, while other teams are not held back."""

import threading
import time

import pytest
from rest_framework.test import APIClient

from tests.kit.factories import make_endpoint
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db(transaction=True)  # requests from two threads


def client_for(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def create(client, url, **headers):
    body = {"url": url, "events": ["wallet.credit"]}
    return client.post("/api/v1/webhooks", body, format="json", **headers)


def wait_until(condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def slow_probe_in_flight(team_keys, https_receiver):
    """The team's first create is probing a URL that answers only after 3 s."""
    https_receiver.respond("/slow", delay=3.0)
    outcome = {}

    def first_create():
        outcome["response"] = create(
            client_for(team_keys.test_key), https_receiver.url_for("/slow")
        )

    thread = threading.Thread(target=first_create)
    thread.start()
    assert wait_until(lambda: any(r.path == "/slow" for r in https_receiver.requests))
    yield outcome
    thread.join(timeout=30)
    assert not thread.is_alive()


def test_a_second_probe_of_the_same_team_is_refused_with_retry_after(
    team_keys, https_receiver, slow_probe_in_flight
):
    response = create(client_for(team_keys.test_key), https_receiver.url_for("/other"))

    assert response.status_code == 429
    assert response.json()["error"] == {
        "code": "probe_in_progress",
        "message": "Another webhook URL of this team is being checked; retry shortly",
        "details": None,
        "request_id": response["X-Request-Id"],
        "doc_url": "http://testserver/api/v1/docs/errors/probe_in_progress",
    }
    assert 1 <= int(response["Retry-After"]) <= 10
    assert not any(r.path == "/other" for r in https_receiver.requests)  # never probed
    # The team's other mode shares the one probe.
    assert (
        create(client_for(team_keys.live_key), https_receiver.url_for("/live")).status_code == 429
    )


def test_a_url_change_waits_for_the_same_probe(
    team, team_keys, https_receiver, slow_probe_in_flight
):
    endpoint = make_endpoint(team, https_receiver.url)
    client = client_for(team_keys.live_key)

    changed = client.put(
        f"/api/v1/webhooks/{endpoint.pk}", {"url": https_receiver.url_for("/new")}, format="json"
    )
    assert changed.status_code == 429
    assert changed.json()["error"]["code"] == "probe_in_progress"
    endpoint.refresh_from_db()
    assert endpoint.url == https_receiver.url
    # A change that needs no probe goes through.
    paused = client.put(f"/api/v1/webhooks/{endpoint.pk}", {"active": False}, format="json")
    assert paused.status_code == 200


def test_another_team_is_not_held_back(other_team_keys, https_receiver, slow_probe_in_flight):
    response = create(client_for(other_team_keys.test_key), https_receiver.url_for("/theirs"))

    assert response.status_code == 201
    assert "response" not in slow_probe_in_flight  # the slow probe is still running


def test_the_refusal_is_not_replayed_and_the_team_may_probe_again_after(
    team, team_keys, https_receiver, slow_probe_in_flight
):
    client = client_for(team_keys.test_key)
    key = {"HTTP_IDEMPOTENCY_KEY": "create-other-1"}
    assert create(client, https_receiver.url_for("/other"), **key).status_code == 429

    assert wait_until(lambda: "response" in slow_probe_in_flight)
    assert slow_probe_in_flight["response"].status_code == 201

    retried = create(client, https_receiver.url_for("/other"), **key)
    assert retried.status_code == 201  # a 429 is not stored against the Idempotency-Key
    assert "Idempotent-Replayed" not in retried
    assert WebhookEndpoint.objects.filter(team=team).count() == 2


def test_a_failed_probe_releases_the_lock(team_keys, https_receiver, settings):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    https_receiver.respond("/never", delay=3.0)
    client = client_for(team_keys.test_key)

    assert create(client, https_receiver.url_for("/never")).status_code == 422
    assert create(client, https_receiver.url_for("/ok")).status_code == 201
