import threading
from datetime import timedelta
from unittest.mock import ANY

import pytest
from django.db import connection
from django.test import Client as DjangoClient
from django.utils import timezone

from agencies.models import Client
from core.models import IdempotencyKey
from tests.kit.marks import needs_postgresql

pytestmark = pytest.mark.urls("tests.plumbing_urls")

CLIENTS = "/api/v1/_plumbing/clients"
BODY = {"full_name": "Ana Souza", "email": "ana@example.com"}


def post(client, body=BODY, key="key-1"):
    return client.post(CLIENTS, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.django_db
def test_same_key_and_body_replays_the_stored_response(live_client):
    first = post(live_client)
    second = post(live_client)
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Client.objects.count() == 1


@pytest.mark.django_db
def test_same_json_differently_spaced_is_the_same_request(live_client):
    first = post(live_client)
    again = live_client.post(
        CLIENTS,
        data='{ "email": "ana@example.com",  "full_name": "Ana Souza" }',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="key-1",
    )
    assert again.json() == first.json()


@pytest.mark.django_db
def test_same_key_different_body_is_409(live_client):
    post(live_client)
    response = post(live_client, {**BODY, "full_name": "Someone Else"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert Client.objects.count() == 1


@pytest.mark.django_db
def test_same_key_on_another_path_is_409(live_client):
    post(live_client)
    response = live_client.post(
        "/api/v1/_plumbing/boom", BODY, format="json", HTTP_IDEMPOTENCY_KEY="key-1"
    )
    assert response.status_code == 409


@pytest.mark.django_db
def test_request_still_in_flight_is_409(live_client, team):
    IdempotencyKey.objects.create(
        team=team,
        live_mode=True,
        key="key-1",
        request_fingerprint=_fingerprint_of_first(live_client, team),
        created_at=timezone.now(),
    )
    response = post(live_client)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "idempotency_key_in_flight"
    assert Client.objects.count() == 0


def _fingerprint_of_first(live_client, team):
    # Learn the fingerprint our request has, then forget the completed claim.
    post(live_client, key="probe")
    claim = IdempotencyKey.objects.get(key="probe")
    Client.objects.all().delete()
    fingerprint = claim.request_fingerprint
    claim.delete()
    return fingerprint


@pytest.mark.django_db
def test_claim_of_a_request_that_died_is_taken_over(live_client, team, settings):
    fingerprint = _fingerprint_of_first(live_client, team)
    IdempotencyKey.objects.create(
        team=team,
        live_mode=True,
        key="key-1",
        request_fingerprint=fingerprint,
        created_at=timezone.now() - settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT - timedelta(seconds=1),
    )
    assert post(live_client).status_code == 201
    assert IdempotencyKey.objects.get(key="key-1").completed_at is not None


@pytest.mark.django_db
def test_errors_are_replayed_too(live_client):
    first = post(live_client, {"full_name": "X", "email": "conflict@example.com"})
    second = post(live_client, {"full_name": "X", "email": "conflict@example.com"})
    assert first.status_code == second.status_code == 409
    # The first answer, but for its request id: this request's, as in every error body.
    assert second.json()["error"]["request_id"] == second["X-Request-Id"]
    assert second.json() == {**first.json(), "error": {**first.json()["error"], "request_id": ANY}}
    assert second["Idempotent-Replayed"] == "true"


@pytest.mark.django_db
def test_server_error_releases_the_key_for_a_retry(team_keys):
    client = DjangoClient(
        raise_request_exception=False,
        HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert (
        client.post("/api/v1/_plumbing/boom", BODY, content_type="application/json").status_code
        == 500
    )
    assert not IdempotencyKey.objects.filter(key="k").exists()


@pytest.mark.django_db
def test_keys_expire_after_24_hours(live_client, settings):
    post(live_client)
    IdempotencyKey.objects.update(created_at=timezone.now() - settings.IDEMPOTENCY_KEY_TTL)
    replay = post(live_client, {**BODY, "email": "new@example.com"})
    assert replay.status_code == 201  # a new request, not a 409: the old key is gone
    assert Client.objects.count() == 2


@pytest.mark.django_db
def test_purge_task_deletes_expired_keys(live_client, settings):
    from api.tasks import purge_idempotency_keys

    post(live_client)
    post(live_client, {**BODY, "email": "two@example.com"}, key="key-2")
    IdempotencyKey.objects.filter(key="key-1").update(
        created_at=timezone.now() - settings.IDEMPOTENCY_KEY_TTL - timedelta(seconds=1)
    )
    assert purge_idempotency_keys.delay().get() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["key-2"]


@pytest.mark.django_db
def test_keys_are_scoped_to_team_and_mode(live_client, test_client, other_team_keys):
    from rest_framework.test import APIClient

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other_team_keys.live_key}")
    assert post(live_client).status_code == 201
    assert post(test_client).status_code == 201
    assert post(other).status_code == 201
    assert Client.objects.count() == 3


@pytest.mark.django_db
def test_get_ignores_the_header(live_client):
    response = live_client.get(CLIENTS, HTTP_IDEMPOTENCY_KEY="key-1")
    assert response.status_code == 200
    assert not IdempotencyKey.objects.exists()


@pytest.mark.django_db
def test_overlong_key_is_400(live_client):
    response = post(live_client, key="k" * 256)
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "Invalid request parameters"


@needs_postgresql("SQLite serialises writers, so there is no race to test")
@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_create_one_row(team_keys):
    barrier = threading.Barrier(8)
    statuses = []

    def worker():
        client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
        barrier.wait()
        statuses.append(
            client.post(
                CLIENTS, BODY, content_type="application/json", HTTP_IDEMPOTENCY_KEY="race"
            ).status_code
        )
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Client.objects.count() == 1
    assert statuses.count(201) >= 1 and set(statuses) <= {201, 409}
