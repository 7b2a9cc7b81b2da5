import pytest
from django.test import override_settings

from agencies.tests.factories import ClientFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.plumbing_urls")]

CLIENTS = "/api/v1/_plumbing/clients"


@pytest.fixture
def clients_of_team(team):
    return ClientFactory.create_batch(105, team=team, live_mode=True)


def test_default_page_is_20_with_the_spec_pagination_object(live_client, clients_of_team):
    body = live_client.get(CLIENTS).json()
    assert len(body["data"]) == 20
    assert body["pagination"] == {
        "page": 1,
        "limit": 20,
        "total": 105,
        "pages": 6,
        "has_more": True,
    }


def test_limit_is_capped_at_100(live_client, clients_of_team):
    body = live_client.get(CLIENTS, {"limit": 500}).json()
    assert len(body["data"]) == 100
    assert body["pagination"] == {
        "page": 1,
        "limit": 100,
        "total": 105,
        "pages": 2,
        "has_more": True,
    }


def test_last_page_and_past_the_end(live_client, clients_of_team):
    last = live_client.get(CLIENTS, {"limit": 100, "page": 2}).json()
    assert len(last["data"]) == 5 and last["pagination"]["has_more"] is False
    past = live_client.get(CLIENTS, {"limit": 100, "page": 3})
    assert past.status_code == 200
    assert past.json()["data"] == [] and past.json()["pagination"]["page"] == 3


def test_pages_do_not_overlap(live_client, clients_of_team):
    first = {c["id"] for c in live_client.get(CLIENTS, {"page": 1}).json()["data"]}
    second = {c["id"] for c in live_client.get(CLIENTS, {"page": 2}).json()["data"]}
    assert len(first) == len(second) == 20 and not first & second


def test_empty_list_has_zero_pages(live_client):
    assert live_client.get(CLIENTS).json()["pagination"] == {
        "page": 1,
        "limit": 20,
        "total": 0,
        "pages": 0,
        "has_more": False,
    }


@pytest.mark.parametrize(
    "params",
    [
        {"limit": "abc"},
        {"limit": "0"},
        {"limit": "-5"},
        {"page": "0"},
        {"page": "x"},
        {"page": "-1"},
        {"limit": "2.5"},
    ],
)
def test_bad_page_or_limit_is_400(live_client, params):
    response = live_client.get(CLIENTS, params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] == "Invalid request parameters"
    assert set(error["details"]) == set(params)


@override_settings(API_RATE_LIMIT="3/minute")
def test_rate_limit_answers_429_with_retry_after(live_client, test_client):
    assert [live_client.get(CLIENTS).status_code for _ in range(3)] == [200, 200, 200]
    response = live_client.get(CLIENTS)
    assert response.status_code == 429
    assert response.json()["error"] == {
        "code": "rate_limited",
        "message": "Rate limit exceeded",
        "details": None,
        "request_id": response["X-Request-Id"],
        "doc_url": "http://testserver/api/v1/docs/errors/rate_limited",
    }
    assert 1 <= int(response["Retry-After"]) <= 60
    # The team's test mode has its own budget (limits count per team and mode).
    assert test_client.get(CLIENTS).status_code == 200
