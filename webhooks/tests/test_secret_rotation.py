"""Rolling a webhook's secret (`POST /api/v1/webhooks/:id/rotate_secret`): the overlap in which
deliveries carry both signatures, verified by the receiver snippet docs/webhooks.md gives; its
end; bounds, scoping, restricted keys, replays; the beat task that forgets expired secrets."""

import re
from datetime import timedelta
from pathlib import Path

import orjson
import pytest
from django.conf import settings
from django.utils import timezone

from agencies.services import api_key_create
from core.audit import entries_for
from tests.kit.factories import SECRET, make_endpoint, record
from tests.kit.receiver import verify_signature
from webhooks.models import WebhookEndpoint
from webhooks.services import webhook_previous_secrets_drop
from webhooks.tasks import drop_expired_previous_secrets

pytestmark = pytest.mark.django_db

DOCS = Path(settings.BASE_DIR) / "docs" / "webhooks.md"


def documented_verify():
    """The `verify` function of docs/webhooks.md's "Verifying a delivery", run as written: the
    receiver an agency copies."""
    text = DOCS.read_text()
    section = text[text.index("### Verifying a delivery") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, str(DOCS), "exec"), namespace)  # noqa: S102 - our own documentation
    return namespace["verify"]


def rotate(client, endpoint, body=None, **headers):
    return client.post(
        f"/api/v1/webhooks/{endpoint.pk}/rotate_secret", body, format="json", **headers
    )


@pytest.fixture
def deliver_one(team, https_receiver, django_capture_on_commit_callbacks):
    """An event delivered to the team's endpoint; the request the receiver got."""

    def deliver():
        before = len(https_receiver.requests)
        with django_capture_on_commit_callbacks(execute=True):
            record(team)
        return _only(https_receiver.requests[before:])

    return deliver


def _only(received):
    assert len(received) == 1
    return received[0]


@pytest.fixture
def endpoint(team, https_receiver):
    return make_endpoint(team, https_receiver.url)


def test_a_roll_answers_the_new_secret_once_and_keeps_the_old_one_signing_for_24_hours(
    live_client, endpoint
):
    response = rotate(live_client, endpoint)

    assert response.status_code == 200
    data = response.json()["data"]
    assert set(data) == {"id", "secret", "previous_secret_expires_at", "rotated_at"}
    assert data["id"] == endpoint.pk
    assert data["secret"].startswith("whsec_") and data["secret"] != SECRET
    endpoint.refresh_from_db()
    assert endpoint.secret == data["secret"] and endpoint.previous_secret == SECRET
    expected_end = endpoint.secret_rotated_at + timedelta(hours=24)
    assert endpoint.previous_secret_expires_at == expected_end
    assert data["previous_secret_expires_at"] == expected_end.isoformat(
        timespec="milliseconds"
    ).replace("+00:00", "Z")
    # Never shown again.
    read = live_client.get(f"/api/v1/webhooks/{endpoint.pk}").content.decode()
    assert data["secret"] not in read and SECRET not in read


def test_during_the_overlap_the_documented_snippet_accepts_either_secret(
    live_client, endpoint, deliver_one
):
    new = rotate(live_client, endpoint).json()["data"]["secret"]
    verify = documented_verify()

    request = deliver_one()

    assert "X-Service-Signature-Previous" in request.headers
    assert verify(SECRET, request.headers, request.body)  # a receiver not switched yet
    assert verify(new, request.headers, request.body)  # a receiver already switched
    assert not verify("whsec_someone_else", request.headers, request.body)
    # The spec's own header is the new secret's: a receiver reading only it switches cleanly.
    assert verify_signature(new, request.headers, request.body)
    assert not verify_signature(SECRET, request.headers, request.body)


def test_after_the_overlap_only_the_new_secret_verifies(live_client, endpoint, deliver_one):
    new = rotate(live_client, endpoint, {"expire_previous_in_hours": 1}).json()["data"]["secret"]
    # An hour and a second later (the time is compared at each attempt).
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        previous_secret_expires_at=timezone.now() - timedelta(seconds=1)
    )
    verify = documented_verify()

    request = deliver_one()

    assert "X-Service-Signature-Previous" not in request.headers
    assert verify(new, request.headers, request.body)
    assert not verify(SECRET, request.headers, request.body)


def test_zero_hours_drops_the_previous_secret_at_once(live_client, endpoint, deliver_one):
    response = rotate(live_client, endpoint, {"expire_previous_in_hours": 0})

    assert response.status_code == 200
    data = response.json()["data"]
    assert data["previous_secret_expires_at"] is None
    endpoint.refresh_from_db()
    assert endpoint.previous_secret is None and endpoint.previous_secret_expires_at is None
    request = deliver_one()
    assert "X-Service-Signature-Previous" not in request.headers
    assert not documented_verify()(SECRET, request.headers, request.body)


def test_rolling_again_during_an_overlap_keeps_only_the_last_two_secrets(
    live_client, endpoint, deliver_one
):
    second = rotate(live_client, endpoint).json()["data"]["secret"]
    third = rotate(live_client, endpoint, {"expire_previous_in_hours": 2}).json()["data"]["secret"]
    verify = documented_verify()

    request = deliver_one()

    assert verify(third, request.headers, request.body)
    assert verify(second, request.headers, request.body)
    assert not verify(SECRET, request.headers, request.body)  # the first stopped signing
    endpoint.refresh_from_db()
    assert endpoint.previous_secret == second
    assert endpoint.previous_secret_expires_at == endpoint.secret_rotated_at + timedelta(hours=2)


@pytest.mark.parametrize("hours", [-1, 169, "24", True, None, 1.5, [24], {"hours": 24}], ids=repr)
def test_hours_must_be_an_integer_from_0_to_168(live_client, endpoint, hours):
    response = rotate(live_client, endpoint, {"expire_previous_in_hours": hours})

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["message"]) == ("invalid_request", "Invalid request parameters")
    assert error["details"] == {"expire_previous_in_hours": ["An integer from 0 to 168 (hours)."]}
    endpoint.refresh_from_db()
    assert endpoint.secret == SECRET and endpoint.previous_secret is None


@pytest.mark.parametrize("hours", [0, 1, 168, 24.0])
def test_the_bounds_themselves_are_accepted(live_client, endpoint, hours):
    assert rotate(live_client, endpoint, {"expire_previous_in_hours": hours}).status_code == 200


def test_another_teams_webhook_is_not_found(live_client, other_team, https_receiver):
    theirs = make_endpoint(other_team, https_receiver.url)

    response = rotate(live_client, theirs)

    assert response.status_code == 404
    error = response.json()["error"]
    assert (error["code"], error["message"]) == ("webhook_not_found", "Webhook not found")
    theirs.refresh_from_db()
    assert theirs.secret == SECRET and theirs.previous_secret is None


def test_the_other_mode_of_the_same_team_is_not_found(test_client, endpoint):
    response = rotate(test_client, endpoint)  # a test key; the endpoint is live
    assert response.status_code == 404
    endpoint.refresh_from_db()
    assert endpoint.secret == SECRET


def test_a_restricted_key_needs_webhooks_write(team, endpoint, api_client_for):
    reader = api_client_for(team, permissions=["webhooks:read"])
    response = rotate(reader, endpoint)
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "permission_denied"
    assert error["details"] == {"permission": ["webhooks:write"]}
    endpoint.refresh_from_db()
    assert endpoint.secret == SECRET

    writer = api_client_for(team, permissions=["webhooks:write"])
    assert rotate(writer, endpoint).status_code == 200


def test_a_retry_with_the_same_idempotency_key_replays_the_same_secret_and_rolls_once(
    live_client, endpoint
):
    first = rotate(live_client, endpoint, {}, HTTP_IDEMPOTENCY_KEY="roll-1")
    again = rotate(live_client, endpoint, {}, HTTP_IDEMPOTENCY_KEY="roll-1")

    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["data"] == first.json()["data"]
    endpoint.refresh_from_db()
    assert endpoint.secret == first.json()["data"]["secret"]
    assert endpoint.previous_secret == SECRET  # not rolled twice: the first is still previous


def test_a_roll_is_in_the_endpoints_history_without_any_secret(live_client, endpoint):
    new = rotate(live_client, endpoint).json()["data"]["secret"]

    [entry] = [e for e in entries_for(endpoint) if "action" in e.additional_data]
    assert entry.additional_data["action"] == "webhook_rotate_secret_api"
    assert set(entry.changes) == {"previous_secret_expires_at", "secret_rotated_at"}
    assert new not in str(entry.changes) and SECRET not in str(entry.changes)


def test_expired_previous_secrets_are_forgotten_by_beat(team, https_receiver):
    now = timezone.now()
    expired = make_endpoint(
        team,
        https_receiver.url,
        previous_secret="whsec_old",
        previous_secret_expires_at=now - timedelta(minutes=1),
    )
    current = make_endpoint(
        team,
        https_receiver.url + "?current",
        previous_secret="whsec_still",
        previous_secret_expires_at=now + timedelta(hours=1),
    )

    entry = settings.CELERY_BEAT_SCHEDULE["drop-expired-webhook-secrets"]
    assert entry["task"] == drop_expired_previous_secrets.name
    assert drop_expired_previous_secrets() == 1
    assert webhook_previous_secrets_drop(now=now) == 0  # nothing left to drop

    expired.refresh_from_db()
    current.refresh_from_db()
    assert (expired.previous_secret, expired.previous_secret_expires_at) == (None, None)
    assert current.previous_secret == "whsec_still"


def test_the_previous_secret_is_stored_encrypted(live_client, endpoint):
    from django.db import connection

    rotate(live_client, endpoint)

    table = WebhookEndpoint._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT previous_secret FROM {table} WHERE id = %s", [endpoint.pk])  # noqa: S608
        stored = cursor.fetchone()[0]
    assert SECRET not in str(stored)


def test_the_payload_of_a_delivery_is_what_both_signatures_sign(live_client, endpoint, deliver_one):
    rotate(live_client, endpoint)
    request = deliver_one()
    assert orjson.loads(request.body)["webhook_id"] == endpoint.pk


@pytest.fixture
def api_client_for():
    from rest_framework.test import APIClient

    def make(team, *, permissions, live_mode=True):
        _, secret = api_key_create(team=team, live_mode=live_mode, permissions=permissions)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        return client

    return make
