"""Rate limits: per team and mode (not per key), a lower one for searches, and per client
address for requests without a usable key. Every refusal is `429 rate_limited` with
`Retry-After`, in the one error shape."""

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from agencies.services import api_key_create, api_key_revoke

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.plumbing_urls")]

CLIENTS = "/api/v1/_plumbing/clients"
SEARCH = "/api/v1/flights/search"
UNKNOWN_KEY = "sk_live_" + "x" * 40


def client_with(key: str | None = None, address: str = "203.0.113.10") -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def assert_rate_limited(response, *, window: int = 60):
    assert response.status_code == 429
    assert response.json()["error"] == {
        "code": "rate_limited",
        "message": "Rate limit exceeded",
        "details": None,
        "request_id": response["X-Request-Id"],
        "doc_url": "http://testserver/api/v1/docs/errors/rate_limited",
    }
    assert 1 <= int(response["Retry-After"]) <= window


def another_key(team, *, live_mode: bool) -> str:
    _, secret = api_key_create(team=team, live_mode=live_mode, name="Second")
    return secret


@override_settings(API_RATE_LIMIT="4/minute")
def test_two_keys_of_one_team_share_the_window(team, team_keys):
    first, second = client_with(team_keys.live_key), client_with(another_key(team, live_mode=True))
    assert [first.get(CLIENTS).status_code for _ in range(2)] == [200, 200]
    assert [second.get(CLIENTS).status_code for _ in range(2)] == [200, 200]

    assert_rate_limited(first.get(CLIENTS))
    assert_rate_limited(second.get(CLIENTS))
    # A third key minted now buys nothing either.
    assert_rate_limited(client_with(another_key(team, live_mode=True)).get(CLIENTS))


@override_settings(API_RATE_LIMIT="3/minute")
def test_test_and_live_mode_count_apart_and_other_teams_are_untouched(team_keys, other_team_keys):
    live = client_with(team_keys.live_key)
    assert [live.get(CLIENTS).status_code for _ in range(3)] == [200, 200, 200]
    assert_rate_limited(live.get(CLIENTS))

    assert client_with(team_keys.test_key).get(CLIENTS).status_code == 200
    assert client_with(other_team_keys.live_key).get(CLIENTS).status_code == 200


@override_settings(API_RATE_LIMIT="100/minute", API_SEARCH_RATE_LIMIT="2/minute")
def test_searches_have_their_own_lower_limit(team_keys):
    client = client_with(team_keys.test_key)
    # Invalid bodies are enough: a search is counted before it is read.
    assert [client.post(SEARCH, {}, format="json").status_code for _ in range(2)] == [400, 400]

    assert_rate_limited(client.post(SEARCH, {}, format="json"))
    # The rest of the API is still open to the team, and its live mode may still search.
    assert client.get(CLIENTS).status_code == 200
    assert client_with(team_keys.live_key).post(SEARCH, {}, format="json").status_code == 400


@override_settings(API_RATE_LIMIT="3/minute", API_SEARCH_RATE_LIMIT="100/minute")
def test_searches_count_against_the_general_limit_too(team_keys):
    client = client_with(team_keys.test_key)
    assert [client.get(CLIENTS).status_code for _ in range(3)] == [200, 200, 200]

    assert_rate_limited(client.post(SEARCH, {}, format="json"))


@override_settings(API_ANONYMOUS_RATE_LIMIT="3/minute")
def test_requests_without_a_usable_key_are_limited_per_address(team, team_keys):
    revoked_key = another_key(team, live_mode=True)
    api_key_revoke(api_key=team.api_keys.get(name="Second"))
    guesses = [client_with(), client_with(UNKNOWN_KEY), client_with(revoked_key)]
    assert [c.get(CLIENTS).status_code for c in guesses] == [401, 401, 401]

    for client in guesses:  # no key, an unknown key, a revoked key: all from one address
        assert_rate_limited(client.get(CLIENTS))

    # Another address is not limited; a valid key from the limited address is not either.
    assert client_with(UNKNOWN_KEY, address="198.51.100.7").get(CLIENTS).status_code == 401
    assert client_with(team_keys.live_key).get(CLIENTS).status_code == 200


@override_settings(API_ANONYMOUS_RATE_LIMIT="2/minute", BEHIND_TLS_PROXY=False)
def test_x_forwarded_for_is_ignored_unless_behind_our_proxy():
    for forged in ("192.0.2.1", "192.0.2.2"):
        response = client_with().get(CLIENTS, HTTP_X_FORWARDED_FOR=forged)
        assert response.status_code == 401

    assert_rate_limited(client_with().get(CLIENTS, HTTP_X_FORWARDED_FOR="192.0.2.3"))


@override_settings(API_ANONYMOUS_RATE_LIMIT="2/minute", BEHIND_TLS_PROXY=True)
def test_behind_our_proxy_the_address_it_appended_counts():
    proxy = "10.0.0.2"  # every request arrives from the proxy

    def from_client(forwarded: str):
        return client_with(address=proxy).get(CLIENTS, HTTP_X_FORWARDED_FOR=forwarded)

    # What the client itself puts first is not trusted: both are the same client.
    assert from_client("192.0.2.1, 198.51.100.20").status_code == 401
    assert from_client("192.0.2.2, 198.51.100.20").status_code == 401
    assert_rate_limited(from_client("198.51.100.20"))
    # Another client behind the same proxy has its own window.
    assert from_client("198.51.100.21").status_code == 401


# --- RateLimit-* headers ------------------------------------------------------------------------


@override_settings(API_RATE_LIMIT="3/minute")
def test_every_authenticated_answer_says_where_the_quota_stands(team_keys):
    client = client_with(team_keys.live_key)
    seen = []
    for _ in range(3):
        response = client.get("/api/v1/wallet/balance")
        assert response.status_code == 200
        seen.append(response["RateLimit-Remaining"])
        assert response["RateLimit-Limit"] == "3"
        assert 1 <= int(response["RateLimit-Reset"]) <= 60
    assert seen == ["2", "1", "0"]
    refused = client.get("/api/v1/bookings/ord_unknown")
    assert_rate_limited(refused)
    assert refused["RateLimit-Remaining"] == "0" and refused["RateLimit-Limit"] == "3"


@override_settings(API_RATE_LIMIT="100/minute")
def test_errors_carry_the_headers_and_anonymous_answers_do_not(team_keys):
    missing = client_with(team_keys.live_key).get("/api/v1/bookings/ord_unknown")
    assert missing.status_code == 404 and missing["RateLimit-Remaining"] == "99"
    anonymous = client_with().get("/api/v1/wallet/balance")
    assert anonymous.status_code == 401 and "RateLimit-Limit" not in anonymous


@override_settings(API_RATE_LIMIT="100/minute", API_SEARCH_RATE_LIMIT="2/minute")
def test_a_search_shows_the_search_quota(team_keys):
    client = client_with(team_keys.test_key)
    body = {
        "type": "one_way",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [{"origin": "GRU", "destination": "GIG", "departureDate": "2027-03-10"}],
    }
    response = client.post(SEARCH, body, format="json")
    assert response["RateLimit-Limit"] == "2" and response["RateLimit-Remaining"] == "1"
    balance = client.get("/api/v1/wallet/balance")
    assert balance["RateLimit-Limit"] == "100" and balance["RateLimit-Remaining"] == "98"
