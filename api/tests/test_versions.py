"""Dated API versions (api/versions.py, docs/changelog.md): the `Api-Version` header, the team's
pin, the answer of every kind saying its version, and the one chain of changes rendering an
older version's shapes."""

import pytest
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from api.versions import (
    FIRST_VERSION,
    LATEST_VERSION,
    VERSIONS,
    answer_in_version,
    event_in_version,
)

pytestmark = pytest.mark.django_db

BALANCE = "/api/v1/wallet/balance"
SECOND_VERSION = "2026-11-28"


def client_with(key: str | None = None, *, version: str | None = None) -> APIClient:
    client = APIClient(REMOTE_ADDR="203.0.113.20")
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    if version is not None:
        client.defaults["HTTP_API_VERSION"] = version
    return client


def pin(team, version: str) -> None:
    team.api_version = version
    team.save()


def test_the_versions_are_dated_and_the_second_is_the_latest():
    assert VERSIONS == (FIRST_VERSION, SECOND_VERSION) == ("2026-11-22", "2026-11-28")
    assert LATEST_VERSION == SECOND_VERSION


def test_a_new_team_is_pinned_to_the_latest_version(team):
    assert team.api_version == LATEST_VERSION


def test_without_the_header_the_teams_pin_applies(team, team_keys):
    pin(team, FIRST_VERSION)
    response = client_with(team_keys.live_key).get(BALANCE)
    assert response.status_code == 200
    assert response["Api-Version"] == FIRST_VERSION


def test_the_header_overrides_the_pin(team, team_keys):
    pin(team, FIRST_VERSION)
    response = client_with(team_keys.live_key, version=SECOND_VERSION).get(BALANCE)
    assert response.status_code == 200
    assert response["Api-Version"] == SECOND_VERSION


@pytest.mark.parametrize("unknown", ["2026-11-23", "latest", "", "2026-11-22 "])
def test_an_unknown_version_is_400_in_the_one_error_shape(team, team_keys, unknown):
    pin(team, FIRST_VERSION)
    response = client_with(team_keys.live_key, version=unknown).get(BALANCE)

    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid_api_version",
        "message": "Invalid API version",
        "details": {
            "Api-Version": [
                f"Unknown version {unknown!r}; the versions are 2026-11-22, 2026-11-28."
            ]
        },
        "request_id": response["X-Request-Id"],
        "doc_url": "http://testserver/api/v1/docs/errors/invalid_api_version",
    }
    # The answer is in the version the request has without the header: its team's.
    assert response["Api-Version"] == FIRST_VERSION


def test_an_unknown_version_is_refused_before_the_key_is_asked_for():
    response = client_with(version="1999-01-01").get(BALANCE)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_api_version"
    assert response["Api-Version"] == LATEST_VERSION


def test_a_request_without_a_usable_key_is_answered_in_the_latest_or_the_header(team, team_keys):
    pin(team, FIRST_VERSION)
    for client in (client_with(), client_with("sk_live_" + "x" * 40)):
        response = client.get(BALANCE)
        assert response.status_code == 401
        assert response["Api-Version"] == LATEST_VERSION
    response = client_with(version=FIRST_VERSION).get(BALANCE)
    assert response.status_code == 401
    assert response["Api-Version"] == FIRST_VERSION


def test_a_404_says_the_version_of_the_key(team, team_keys):
    pin(team, FIRST_VERSION)
    response = client_with(team_keys.test_key).get("/api/v1/nowhere")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert response["Api-Version"] == FIRST_VERSION


def test_a_validation_error_says_its_version(team, team_keys):
    response = client_with(team_keys.test_key, version=FIRST_VERSION).get(
        "/api/v1/bookings", {"limit": "many"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert response["Api-Version"] == FIRST_VERSION


@pytest.mark.urls("tests.plumbing_urls")
@override_settings(API_RATE_LIMIT="1/minute")
def test_a_429_says_its_version(team, team_keys):
    pin(team, FIRST_VERSION)
    client = client_with(team_keys.live_key)
    assert client.get("/api/v1/_plumbing/clients").status_code == 200
    response = client.get("/api/v1/_plumbing/clients")
    assert response.status_code == 429
    assert response["Api-Version"] == FIRST_VERSION


def test_the_schema_is_answered_with_a_version_too(anon_client):
    response = anon_client.get("/api/v1/schema")
    assert response.status_code == 200
    assert response["Api-Version"] == LATEST_VERSION


def test_answers_are_rendered_back_only_where_a_change_concerns_them():
    answer = {"success": True, "data": [{"id": "ord_1", "total_currency": "EUR"}]}
    assert answer_in_version(answer, method="GET", url_name="bookings", version=LATEST_VERSION) == (
        answer
    )
    assert answer_in_version(answer, method="GET", url_name="bookings", version=FIRST_VERSION) == {
        "success": True,
        "data": [{"id": "ord_1", "currency": "EUR"}],
    }
    # Other answers, and a POST to the same path, are left alone.
    assert answer_in_version(answer, method="POST", url_name="bookings", version=FIRST_VERSION) == (
        answer
    )
    assert answer_in_version(
        answer, method="GET", url_name="booking-detail", version=FIRST_VERSION
    ) == (answer)


def _payload(type_: str, api_version: str, data_object: dict, previous: dict | None = None):
    return {
        "id": "evt_1",
        "type": type_,
        "api_version": api_version,
        "created_at": "2026-11-28T12:00:00Z",
        "data": {"object": data_object, "previous_attributes": previous or {}},
        "team_id": "team_1",
        "webhook_id": "wh_1",
    }


def test_an_event_written_in_the_first_version_is_brought_forward_and_back():
    written = _payload(
        "booking.updated",
        FIRST_VERSION,
        {"id": "ord_1", "total_amount": "10.00", "currency": "EUR", "status": "pending"},
        {"total_amount": "9.00", "currency": "USD"},
    )

    latest = event_in_version(written, version=LATEST_VERSION)

    assert latest["api_version"] == LATEST_VERSION
    # In the same place among the keys: only the name changes.
    assert list(latest["data"]["object"]) == ["id", "total_amount", "total_currency", "status"]
    assert latest["data"]["object"]["total_currency"] == "EUR"
    previous = latest["data"]["previous_attributes"]
    assert previous == {"total_amount": "9.00", "total_currency": "USD"}
    assert event_in_version(latest, version=FIRST_VERSION) == written
    assert event_in_version(written, version=FIRST_VERSION) == written


def test_events_of_other_objects_keep_their_currency():
    written = _payload("wallet.credit", FIRST_VERSION, {"id": "txn_1", "currency": "BRL"})
    latest = event_in_version(written, version=LATEST_VERSION)
    assert latest["data"] == written["data"] and latest["api_version"] == LATEST_VERSION


def test_the_schema_documents_the_header_and_the_latest_version():
    schema = SchemaGenerator().get_schema(request=None, public=True)

    assert schema["info"]["version"] == LATEST_VERSION
    operations = [
        operation
        for methods in schema["paths"].values()
        for method, operation in methods.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]
    assert len(operations) > 20
    for operation in operations:
        (header,) = [p for p in operation["parameters"] if p["name"] == "Api-Version"]
        assert header["in"] == "header" and header["required"] is False
        assert header["schema"]["enum"] == list(VERSIONS)
        for status, response in operation["responses"].items():
            assert response["headers"]["Api-Version"]["schema"]["enum"] == list(VERSIONS), (
                operation["operationId"],
                status,
            )
