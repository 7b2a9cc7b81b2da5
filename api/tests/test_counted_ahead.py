"""With Redis, a request whose key this process already knows reads the key's generation and
counts its rate-limit windows in one round trip (api/throttling.py, "Counted ahead"); what was
counted for a key that turns out unusable, or for a window the request never reached, is given
back. Without Redis (the embedded cache) nothing is counted ahead: api/tests/test_rate_limits.py
runs on both."""

import contextlib
from unittest import mock

import pytest
import redis.connection
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from agencies import key_cache
from agencies.models import ApiKey
from agencies.services import api_key_create, api_key_revoke

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not hasattr(cache, "get_and_count"), reason="counting ahead needs Redis (REDIS_URL)"
    ),
]

BALANCE = "/api/v1/wallet/balance"
SEARCH = "/api/v1/flights/search"


@pytest.fixture(autouse=True)
def _new_process():
    key_cache.clear_process_cache()
    yield
    key_cache.clear_process_cache()


@contextlib.contextmanager
def redis_round_trips():
    """The commands sent to Redis, one list item per round trip (a pipeline is one)."""
    sent: list[bytes] = []
    send = redis.connection.AbstractConnection.send_packed_command

    def recorded(connection, command, check_health=True):
        sent.append(b"".join(command) if isinstance(command, list) else command)
        return send(connection, command, check_health)

    with mock.patch.object(redis.connection.AbstractConnection, "send_packed_command", recorded):
        yield sent


def client_with(key: str) -> APIClient:
    client = APIClient(REMOTE_ADDR="203.0.113.10")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def remaining(response) -> int:
    assert response.status_code == 200, response.content[:300]
    return int(response["RateLimit-Remaining"])


def test_a_known_key_is_checked_and_counted_in_one_round_trip(team, team_keys):
    client = client_with(team_keys.live_key)
    remaining(client.get(BALANCE))  # this process reads the key from the database
    first = remaining(client.get(BALANCE))  # (and Redis learns the script, once)
    with redis_round_trips() as sent:
        second = remaining(client.get(BALANCE))
    assert len(sent) == 1, sent
    assert sent[0].startswith(b"*") and b"EVALSHA" in sent[0]
    assert key_cache.GENERATION_KEY.encode() in sent[0]
    assert f"throttle:team:{team.pk}:live:".encode() in sent[0]
    assert second == first - 1  # counted once, not twice
    assert remaining(client.get(BALANCE)) == first - 2


def test_a_first_request_is_counted_once_too(team_keys):
    with redis_round_trips() as sent:
        first = client_with(team_keys.live_key).get(BALANCE)
    # The generation, then the window (the key was not known yet): two round trips.
    assert len([command for command in sent if b"INCR" in command]) == 1
    assert int(first["RateLimit-Remaining"]) == int(first["RateLimit-Limit"]) - 1


@override_settings(API_RATE_LIMIT="5/minute")
def test_a_key_revoked_elsewhere_gives_its_count_back(
    team, team_keys, django_capture_on_commit_callbacks
):
    revoked = client_with(team_keys.live_key)
    assert [remaining(revoked.get(BALANCE)) for _ in range(2)] == [4, 3]
    this_process_knows = dict(key_cache._entries)
    with django_capture_on_commit_callbacks(execute=True):  # committed
        api_key_revoke(api_key=ApiKey.objects.get(team=team, live_mode=True))
    # Revoked by another process (the panel's): this one still knows the key, counts ahead,
    # then finds the generation moved on and the key revoked.
    key_cache._entries.update(this_process_knows)
    for _ in range(3):
        assert revoked.get(BALANCE).status_code == 401

    _, secret = api_key_create(team=team, live_mode=True, name="Second")
    assert remaining(client_with(secret).get(BALANCE)) == 2  # the 401s took nothing


@override_settings(API_RATE_LIMIT="2/minute", API_SEARCH_RATE_LIMIT="3/minute")
def test_a_search_refused_by_the_general_limit_takes_nothing_from_the_search_window(team_keys):
    client = client_with(team_keys.test_key)
    assert client.get(BALANCE).status_code == 200
    # Invalid bodies are enough: a search is counted before it is read.
    assert client.post(SEARCH, {}, format="json").status_code == 400
    assert client.post(SEARCH, {}, format="json").status_code == 429  # the general window

    with override_settings(API_RATE_LIMIT="100/minute"):
        answers = [client.post(SEARCH, {}, format="json") for _ in range(3)]
    # One search was counted before: two more fit in the search window, then it is full.
    assert [answer.status_code for answer in answers] == [400, 400, 429]


def test_an_unreadable_generation_reads_the_database_and_counts_once(team, team_keys):
    client = client_with(team_keys.live_key)
    first = remaining(client.get(BALANCE))
    # A value the cache cannot read back (written by something else, or corrupted).
    raw = cache._cache.get_client(write=True)
    raw.set(cache.make_and_validate_key(key_cache.GENERATION_KEY), b"\x80not a pickle")
    ApiKey.objects.filter(team=team).update(last_used_at=None)  # shows the database was read

    assert remaining(client.get(BALANCE)) == first - 1  # counted ahead, and only then
    assert ApiKey.objects.get(team=team, live_mode=True).last_used_at is not None
    assert remaining(client.get(BALANCE)) == first - 2


def test_a_script_the_server_forgot_is_loaded_again_and_counted_once(team_keys):
    """core/cache.py sends the EVALSHA itself; a Redis that lost its scripts (restarted,
    SCRIPT FLUSH) answers NOSCRIPT, and redis-py's own call loads the script and runs it once."""
    client = client_with(team_keys.live_key)
    remaining(client.get(BALANCE))
    first = remaining(client.get(BALANCE))
    cache._cache.get_client(write=True).script_flush()
    with redis_round_trips() as sent:
        second = remaining(client.get(BALANCE))
    assert second == first - 1  # counted once: the refused EVALSHA counted nothing
    assert any(b"EVALSHA" in command for command in sent)
    assert any(b"SCRIPT" in command and b"LOAD" in command for command in sent), sent
    assert remaining(client.get(BALANCE)) == first - 2


def test_a_connection_the_server_closed_is_replaced_and_the_request_counted_once(team_keys):
    """A pooled connection Redis closed (a restart, an idle timeout) is replaced before the hot
    path's EVALSHA is sent on it (redis-py's pool checks it), and the request counts once."""
    client = client_with(team_keys.live_key)
    remaining(client.get(BALANCE))
    first = remaining(client.get(BALANCE))
    redis_client = cache._cache.get_client(write=True)
    # This process's one pooled connection (the tests run in one thread), no other client's.
    redis_client.client_kill_filter(_id=redis_client.client_id(), skipme=False)
    second = remaining(client.get(BALANCE))
    assert second == first - 1
    assert remaining(client.get(BALANCE)) == first - 2
