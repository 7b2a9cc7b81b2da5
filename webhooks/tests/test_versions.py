"""Webhooks and dated API versions (api/versions.py): an endpoint's version, set at creation
(the team's by default), and its deliveries rendered in it; the events API in the request's."""

import orjson
import pytest

from tests.kit.factories import SECRET, make_endpoint, record
from tests.kit.receiver import verify_signature
from webhooks.models import EventType, WebhookEndpoint

pytestmark = pytest.mark.django_db

FIRST, LATEST = "2026-11-22", "2026-11-28"
# A booking event's object as the services write it (in the first version's shape).
BOOKING = {
    "id": "ord_1",
    "booking_reference": "7QW89Z",
    "status": "pending",
    "total_amount": "565.23",
    "currency": "EUR",
    "documents": [],
    "passengers": [],
    "slices": [],
    "created_at": "2026-11-28T12:00:00Z",
}


def create(client, url, **extra):
    body = {"url": url, "events": ["booking.updated"], **extra}
    return client.post("/api/v1/webhooks", body, format="json")


def test_a_webhook_is_created_in_the_teams_version_by_default(test_client, team, https_receiver):
    team.api_version = FIRST
    team.save()

    response = create(test_client, https_receiver.url)

    assert response.status_code == 201
    assert response.json()["data"]["api_version"] == FIRST
    assert WebhookEndpoint.objects.get().api_version == FIRST
    assert test_client.get("/api/v1/webhooks").json()["data"][0]["api_version"] == FIRST


def test_a_webhook_may_be_created_in_another_version(test_client, team, https_receiver):
    team.api_version = FIRST
    team.save()

    response = create(test_client, https_receiver.url, api_version=LATEST)

    assert response.status_code == 201
    assert response.json()["data"]["api_version"] == LATEST
    assert WebhookEndpoint.objects.get().api_version == LATEST


@pytest.mark.parametrize("version", ["2026-11-23", "", 20261122])
def test_an_unknown_version_refuses_the_webhook(test_client, https_receiver, version):
    response = create(test_client, https_receiver.url, api_version=version)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert list(error["details"]) == ["api_version"]
    assert not WebhookEndpoint.objects.exists()
    assert https_receiver.requests == []  # refused before the URL is probed


def test_each_endpoint_gets_the_event_in_its_own_version(
    team, https_receiver, django_capture_on_commit_callbacks
):
    first = make_endpoint(
        team, https_receiver.url_for("/first"), events=["booking.updated"], api_version=FIRST
    )
    latest = make_endpoint(
        team, https_receiver.url_for("/latest"), events=["booking.updated"], api_version=LATEST
    )

    with django_capture_on_commit_callbacks(execute=True):
        event = record(
            team,
            type=EventType.BOOKING_UPDATED,
            data=BOOKING,
            previous={"total_amount": "500.00", "currency": "EUR"},
        )

    received = {request.path.rsplit("/", 1)[-1]: request for request in https_receiver.requests}
    assert set(received) == {"first", "latest"}
    for request in received.values():  # each body is signed as it is sent
        assert verify_signature(SECRET, request.headers, request.body)
    old, new = (orjson.loads(received[name].body) for name in ("first", "latest"))

    assert old["api_version"] == FIRST and old["webhook_id"] == first.id
    assert old["data"]["object"] == BOOKING  # the spec's shape, as ever
    assert old["data"]["previous_attributes"] == {"total_amount": "500.00", "currency": "EUR"}

    assert new["api_version"] == LATEST and new["webhook_id"] == latest.id
    assert "currency" not in new["data"]["object"]
    assert new["data"]["object"]["total_currency"] == "EUR"
    assert new["data"]["previous_attributes"] == {"total_amount": "500.00", "total_currency": "EUR"}
    assert old["id"] == new["id"] == event.id


def test_the_events_api_answers_in_the_requests_version(live_client, team):
    event = record(team, type=EventType.BOOKING_CREATED, data=BOOKING)
    url = f"/api/v1/events/{event.id}"

    latest = live_client.get(url)
    assert latest["Api-Version"] == LATEST == team.api_version
    assert latest.json()["data"]["api_version"] == LATEST
    assert latest.json()["data"]["data"]["object"]["total_currency"] == "EUR"

    first = live_client.get(url, HTTP_API_VERSION=FIRST)
    assert first["Api-Version"] == FIRST
    assert first.json()["data"]["api_version"] == FIRST
    assert first.json()["data"]["data"]["object"] == BOOKING

    listed = live_client.get("/api/v1/events", HTTP_API_VERSION=FIRST).json()["data"]
    assert [e["data"]["object"] for e in listed if e["id"] == event.id] == [BOOKING]


def test_a_webhook_moves_to_another_version_in_place(
    test_client, team, https_receiver, django_capture_on_commit_callbacks
):
    """Upgrading a receiver needs no second endpoint (its URL is taken): PUT `api_version`,
    and the next delivery is in the new shapes."""
    endpoint = make_endpoint(
        team, https_receiver.url, events=["booking.updated"], api_version=FIRST, live_mode=False
    )

    moved = test_client.put(
        f"/api/v1/webhooks/{endpoint.id}", {"api_version": LATEST}, format="json"
    )
    assert moved.status_code == 200, moved.content
    assert moved.json()["data"]["api_version"] == LATEST
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).api_version == LATEST

    with django_capture_on_commit_callbacks(execute=True):
        record(team, type=EventType.BOOKING_UPDATED, data=BOOKING, live_mode=False)
    body = orjson.loads(https_receiver.requests[-1].body)
    assert body["api_version"] == LATEST
    assert body["data"]["object"]["total_currency"] == "EUR"


def test_an_unknown_version_leaves_the_webhook_as_it_was(test_client, team, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url, api_version=FIRST, live_mode=False)

    refused = test_client.put(
        f"/api/v1/webhooks/{endpoint.id}", {"api_version": "2026-11-23"}, format="json"
    )

    assert refused.status_code == 400
    assert list(refused.json()["error"]["details"]) == ["api_version"]
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).api_version == FIRST
