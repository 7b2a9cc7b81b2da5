"""Authentication, test/live mode and the one error shape, through the real URL stack."""

import pytest
from django.test import Client as DjangoClient

from agencies.models import ApiKey
from agencies.services import api_key_revoke
from api.modes import TEST_MODE_MESSAGE

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.plumbing_urls")]

CLIENTS = "/api/v1/_plumbing/clients"


def assert_error(response, status, code, message):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["success"] is False
    assert body["error"]["code"] == code
    assert body["error"]["message"] == message
    assert "details" in body["error"]
    return body


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Bearer sk_test_tooshort",
        "Bearer sk_prod_" + "a" * 40,
        "bearer sk_test_" + "a" * 40,
        "Bearer sk_test_" + "a" * 40,  # well-formed, unknown
    ],
)
def test_missing_malformed_or_unknown_key_is_401(anon_client, team, header):
    if header is not None:
        anon_client.credentials(HTTP_AUTHORIZATION=header)
    response = anon_client.get(CLIENTS)
    body = assert_error(response, 401, "unauthorized", "Unauthorized")
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'
    assert "_meta" not in body


def test_revoked_key_is_401(anon_client, team, team_keys):
    key = ApiKey.objects.get(team=team, live_mode=True)
    api_key_revoke(api_key=key)
    anon_client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    assert_error(anon_client.get(CLIENTS), 401, "unauthorized", "Unauthorized")


def test_valid_keys_authenticate_and_record_last_use(test_client, live_client, team):
    assert test_client.get(CLIENTS).status_code == 200
    assert live_client.get(CLIENTS).status_code == 200
    assert all(k.last_used_at is not None for k in ApiKey.objects.filter(team=team))


def test_test_key_responses_carry_meta(test_client):
    body = test_client.get(CLIENTS).json()
    assert body["_meta"] == {"test_mode": True, "message": TEST_MODE_MESSAGE}


def test_live_key_responses_have_no_meta(live_client):
    body = live_client.get(CLIENTS).json()
    assert body["success"] is True
    assert "_meta" not in body


def test_modes_see_only_their_own_data(test_client, live_client):
    test_client.post(
        CLIENTS, {"full_name": "Sandbox Sam", "email": "sam@example.com"}, format="json"
    )
    assert [c["email"] for c in test_client.get(CLIENTS).json()["data"]] == ["sam@example.com"]
    assert live_client.get(CLIENTS).json()["data"] == []


def test_unknown_path_is_404_in_error_shape_with_meta_for_test_key(test_client):
    body = assert_error(test_client.get("/api/v1/nothing/here"), 404, "not_found", "Not found")
    assert body["_meta"]["test_mode"] is True


def test_trailing_slash_is_not_an_alias(test_client):
    assert_error(test_client.get(CLIENTS + "/"), 404, "not_found", "Not found")


def test_wrong_method_is_405_in_error_shape(test_client):
    body = assert_error(
        test_client.delete(CLIENTS), 405, "method_not_allowed", "Method not allowed"
    )
    assert body["_meta"]["test_mode"] is True


def test_validation_error_is_400_invalid_request_with_details(live_client):
    body = assert_error(
        live_client.post(CLIENTS, {"email": "not-an-email"}, format="json"),
        400,
        "invalid_request",
        "Invalid request parameters",
    )
    assert set(body["error"]["details"]) == {"full_name", "email"}


def test_malformed_json_is_400(live_client):
    response = live_client.post(CLIENTS, data="{not json", content_type="application/json")
    assert_error(response, 400, "invalid_request", "Invalid request parameters")


def test_non_json_body_is_415(live_client):
    response = live_client.post(
        CLIENTS, data="a=b", content_type="application/x-www-form-urlencoded"
    )
    assert_error(response, 415, "unsupported_media_type", "Content-Type must be application/json")


def test_server_error_is_500_in_error_shape_revealing_nothing(team_keys):
    client = DjangoClient(
        raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {team_keys.test_key}"
    )
    response = client.get("/api/v1/_plumbing/boom")
    body = assert_error(response, 500, "internal_error", "Internal server error")
    assert b"hunter2" not in response.content and b"Traceback" not in response.content
    assert body["_meta"]["test_mode"] is True


def test_every_response_has_a_request_id(anon_client, test_client):
    ids = {anon_client.get(CLIENTS)["X-Request-Id"], test_client.get(CLIENTS)["X-Request-Id"]}
    assert len(ids) == 2 and all(len(i) == 32 for i in ids)


def test_a_valid_incoming_request_id_is_kept(test_client):
    incoming = "0f5c1d9e8a7b4c3d2e1f0a9b8c7d6e5f"
    assert test_client.get(CLIENTS, HTTP_X_REQUEST_ID=incoming)["X-Request-Id"] == incoming


def test_a_disallowed_host_is_400_in_error_shape(team):
    client = DjangoClient(raise_request_exception=False, HTTP_HOST="evil.example")
    response = client.get(CLIENTS)
    assert_error(response, 400, "bad_request", "Bad request")
