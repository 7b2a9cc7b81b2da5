"""The Webhooks endpoints: validation with the spec's messages, the reachability probe, per
team and mode scoping, the secret shown once."""

import pytest

from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db

EVENTS = ["booking.created", "wallet.credit"]


def create(client, url, events=EVENTS):
    return client.post("/api/v1/webhooks", {"url": url, "events": events}, format="json")


def error_of(response):
    return response.json()["error"]["message"]


def test_create_returns_the_secret_once_and_probes_the_url(test_client, https_receiver):
    response = create(test_client, https_receiver.url)

    assert response.status_code == 201
    data = response.json()["data"]
    assert set(data) == {"id", "url", "events", "active", "secret", "api_version"}
    assert data["id"].startswith("wh_")
    assert data["secret"].startswith("whsec_") and len(data["secret"]) > 40
    assert data["url"] == https_receiver.url and data["events"] == EVENTS
    assert data["active"] is True
    probe = https_receiver.requests[0]
    assert probe.method == "POST" and probe.headers.get("X-Service-Probe") == "1"
    # The secret never appears again.
    listed = test_client.get("/api/v1/webhooks").json()["data"]
    assert "secret" not in listed[0]
    assert data["secret"] not in str(listed)


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example.com/x",  # not HTTPS
        "ftp://hooks.example.com/x",
        "https://",
        "not a url",
        "",
        None,
        42,
        "https://exa mple.com/",
    ],
)
def test_a_malformed_or_plain_http_url_is_invalid(test_client, url):
    response = create(test_client, url)

    assert response.status_code == 400
    assert error_of(response) == "Invalid URL"
    assert response.json()["error"]["code"] == "invalid_url"
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    "events",
    [[], None, "booking.created", ["booking.created", "booking.exploded"], ["webhook.test"], [1]],
)
def test_events_must_be_known_types(test_client, https_receiver, events):
    response = create(test_client, https_receiver.url, events)

    assert response.status_code == 400
    assert error_of(response) == "Invalid events"
    assert not WebhookEndpoint.objects.exists()


def test_the_same_url_twice_in_one_mode_conflicts_but_not_across_modes_or_teams(
    test_client, live_client, https_receiver, other_team_keys
):
    assert create(test_client, https_receiver.url).status_code == 201

    again = create(test_client, https_receiver.url)
    assert again.status_code == 409
    assert error_of(again) == "URL already registered"

    assert create(live_client, https_receiver.url).status_code == 201
    from rest_framework.test import APIClient

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other_team_keys.test_key}")
    assert create(other, https_receiver.url).status_code == 201


def test_an_unreachable_url_is_refused_and_nothing_is_written(test_client, settings):
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    # Nothing listens on port 9 (discard) here: connection refused.
    response = create(test_client, "https://127.0.0.1:9/hooks")

    assert response.status_code == 422
    assert error_of(response) == "URL not reachable"
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    "url",
    ["https://127.0.0.1/hooks", "https://169.254.169.254/latest", "https://10.0.0.7/h"],
)
def test_a_private_address_is_not_reachable(test_client, url):
    response = create(test_client, url)

    assert response.status_code == 422
    assert error_of(response) == "URL not reachable"


def test_list_shows_delivery_statistics(test_client, https_receiver):
    webhook_id = create(test_client, https_receiver.url).json()["data"]["id"]
    WebhookEndpoint.objects.filter(pk=webhook_id).update(total_deliveries=8, failed_deliveries=2)

    response = test_client.get("/api/v1/webhooks")

    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    (item,) = body["data"]
    assert set(item) == {
        "id",
        "url",
        "events",
        "active",
        "created_at",
        "last_triggered_at",
        "success_rate",
        "total_deliveries",
        "failed_deliveries",
        "api_version",
    }
    assert item["success_rate"] == 75.0
    assert item["total_deliveries"] == 8 and item["failed_deliveries"] == 2
    assert item["last_triggered_at"] is None
    assert item["created_at"].endswith("Z")


def test_webhooks_are_scoped_to_team_and_mode(
    test_client, live_client, https_receiver, other_team_keys
):
    webhook_id = create(test_client, https_receiver.url).json()["data"]["id"]
    from rest_framework.test import APIClient

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other_team_keys.test_key}")

    assert live_client.get("/api/v1/webhooks").json()["data"] == []
    assert other.get("/api/v1/webhooks").json()["data"] == []
    for client in (live_client, other):
        for method in ("get", "put", "delete"):
            response = getattr(client, method)(
                f"/api/v1/webhooks/{webhook_id}", {"active": False}, format="json"
            )
            assert response.status_code == 404
            assert error_of(response) == "Webhook not found"
    assert WebhookEndpoint.objects.get(pk=webhook_id).active is True


def test_unknown_id_is_not_found(test_client):
    response = test_client.put("/api/v1/webhooks/wh_nope", {"active": False}, format="json")

    assert response.status_code == 404
    assert error_of(response) == "Webhook not found"


def test_update_events_and_active(test_client, https_receiver):
    webhook_id = create(test_client, https_receiver.url).json()["data"]["id"]

    response = test_client.put(
        f"/api/v1/webhooks/{webhook_id}",
        {"events": ["booking.ticketed"], "active": False},
        format="json",
    )

    assert response.status_code == 200
    data = response.json()["data"]
    assert set(data) == {"id", "url", "events", "active", "api_version", "updated_at"}
    assert data["events"] == ["booking.ticketed"] and data["active"] is False
    assert data["updated_at"].endswith("Z")


def test_update_validates_like_create(test_client, https_receiver):
    webhook_id = create(test_client, https_receiver.url).json()["data"]["id"]
    path = f"/api/v1/webhooks/{webhook_id}"

    bad_url = test_client.put(path, {"url": "http://plain.example.com"}, format="json")
    bad_events = test_client.put(path, {"events": ["nope"]}, format="json")
    bad_active = test_client.put(path, {"active": "yes"}, format="json")

    assert (bad_url.status_code, error_of(bad_url)) == (400, "Invalid URL")
    assert (bad_events.status_code, error_of(bad_events)) == (400, "Invalid events")
    assert (bad_active.status_code, error_of(bad_active)) == (400, "Invalid request parameters")
    endpoint = WebhookEndpoint.objects.get(pk=webhook_id)
    assert endpoint.url == https_receiver.url and endpoint.events == EVENTS and endpoint.active


def test_a_url_change_is_probed_and_checked_for_duplicates(test_client, https_receiver, settings):
    first = create(test_client, https_receiver.url_for("/a")).json()["data"]["id"]
    create(test_client, https_receiver.url_for("/b"))
    https_receiver.reset()

    moved = test_client.put(
        f"/api/v1/webhooks/{first}", {"url": https_receiver.url_for("/c")}, format="json"
    )
    assert moved.status_code == 200 and moved.json()["data"]["url"].endswith("/c")
    assert [r.path for r in https_receiver.requests] == ["/c"]

    taken = test_client.put(
        f"/api/v1/webhooks/{first}", {"url": https_receiver.url_for("/b")}, format="json"
    )
    assert (taken.status_code, error_of(taken)) == (409, "URL already registered")

    unreachable = test_client.put(
        f"/api/v1/webhooks/{first}", {"url": "https://127.0.0.1:9/x"}, format="json"
    )
    assert (unreachable.status_code, error_of(unreachable)) == (422, "URL not reachable")
    assert WebhookEndpoint.objects.get(pk=first).url.endswith("/c")


def test_delete(test_client, https_receiver):
    webhook_id = create(test_client, https_receiver.url).json()["data"]["id"]

    response = test_client.delete(f"/api/v1/webhooks/{webhook_id}")

    assert response.status_code == 200
    assert response.json()["data"] == {"id": webhook_id, "deleted": True}
    assert not WebhookEndpoint.objects.filter(pk=webhook_id).exists()
    again = test_client.delete(f"/api/v1/webhooks/{webhook_id}")
    assert (again.status_code, error_of(again)) == (404, "Webhook not found")


def test_webhooks_require_an_api_key(anon_client):
    response = anon_client.get("/api/v1/webhooks")

    assert response.status_code == 401
    assert error_of(response) == "Unauthorized"


def test_a_creation_replayed_by_its_idempotency_key_keeps_the_secret_encrypted(
    test_client, https_receiver
):
    from django.db import connection

    body = {"url": https_receiver.url, "events": EVENTS}
    first = test_client.post("/api/v1/webhooks", body, format="json", HTTP_IDEMPOTENCY_KEY="wh-1")
    again = test_client.post("/api/v1/webhooks", body, format="json", HTTP_IDEMPOTENCY_KEY="wh-1")

    secret = first.json()["data"]["secret"]
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["data"]["secret"] == secret and WebhookEndpoint.objects.count() == 1
    with connection.cursor() as cursor:  # what the database holds, under the field
        cursor.execute("SELECT response_body FROM core_idempotencykey")
        (stored,) = cursor.fetchone()
    assert secret not in stored and "whsec_" not in stored
