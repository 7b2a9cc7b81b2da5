"""At most API_SUPPLIER_CONCURRENCY requests of a team and mode wait on a flight supplier at once:
over it, `429 concurrency_limited` with `Retry-After`, before the supplier is called. A slot
taken here stands for a request of the team still waiting on its supplier (the real requests
held at a supplier, across server processes: tests/test_serving.py). Runs on the embedded
cache's per-process slots on SQLite, on Redis's shared ones with REDIS_URL."""

import pytest
from rest_framework.test import APIClient

from api.concurrency import slot_give_back, slot_take
from flights.models import OfferRequest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

SEARCH = "/api/v1/flights/search"
BODY = {
    "type": "one_way",
    "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": "2027-01-15"}],
    "passengers": [{"type": "adult", "count": 1}],
}


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


@pytest.fixture
def one_slot(settings):
    settings.API_SUPPLIER_CONCURRENCY = 1


@pytest.fixture
def slot_in_use(team, one_slot):
    """The team's one live slot, held as by a search still waiting on its supplier."""
    slot = slot_take(team_id=team.pk, live_mode=True)
    yield slot
    slot_give_back(slot)


def test_a_request_over_the_teams_slots_is_refused_before_the_supplier(team_keys, slot_in_use):
    response = client_with(team_keys.live_key).post(SEARCH, BODY, format="json")

    assert response.status_code == 429
    assert response.json()["error"] == {
        "code": "concurrency_limited",
        "message": "Too many requests waiting on the flight supplier; retry shortly",
        "details": None,
        "request_id": response["X-Request-Id"],
        "doc_url": "http://testserver/api/v1/docs/errors/concurrency_limited",
    }
    assert response["Retry-After"] == "1"
    assert "RateLimit-Remaining" in response  # the rate limits counted it as usual
    assert not OfferRequest.objects.exists()  # the supplier was never asked


def test_other_teams_the_other_mode_and_requests_without_a_supplier_are_untouched(
    team_keys, other_team_keys, slot_in_use
):
    assert (
        client_with(other_team_keys.live_key).post(SEARCH, BODY, format="json").status_code == 200
    )
    assert client_with(team_keys.test_key).post(SEARCH, BODY, format="json").status_code == 200
    assert client_with(team_keys.live_key).get("/api/v1/wallet/balance").status_code == 200


def test_the_slot_comes_back_after_each_answer_success_or_error(team_keys, one_slot):
    client = client_with(team_keys.live_key)
    invalid = {**BODY, "slices": [{**BODY["slices"][0], "origin": "G1"}]}
    statuses = [
        client.post(SEARCH, BODY, format="json").status_code,
        client.post(SEARCH, invalid, format="json").status_code,
        client.post(SEARCH, BODY, format="json").status_code,
    ]
    assert statuses == [200, 400, 200]


def test_a_refused_request_may_be_retried_with_its_idempotency_key(team, team_keys, one_slot):
    client = client_with(team_keys.live_key)
    headers = {"Idempotency-Key": "search-retried-after-429"}
    slot = slot_take(team_id=team.pk, live_mode=True)
    refused = client.post(SEARCH, BODY, format="json", headers=headers)
    slot_give_back(slot)

    retried = client.post(SEARCH, BODY, format="json", headers=headers)

    assert refused.status_code == 429
    assert retried.status_code == 200 and "Idempotent-Replayed" not in retried


def test_a_read_that_asks_the_supplier_takes_a_slot_too(team, team_keys, one_slot):
    client = client_with(team_keys.live_key)
    offer = client.post(SEARCH, BODY, format="json").json()["offers"][0]
    bags = f"/api/v1/offers/{offer['id']}/available_services"
    slot = slot_take(team_id=team.pk, live_mode=True)
    refused = client.get(bags)
    slot_give_back(slot)

    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "concurrency_limited"
    assert client.get(bags).status_code == 200


def test_zero_turns_the_cap_off(team, team_keys, settings):
    settings.API_SUPPLIER_CONCURRENCY = 0
    assert slot_take(team_id=team.pk, live_mode=True) is None
    assert client_with(team_keys.live_key).post(SEARCH, BODY, format="json").status_code == 200
