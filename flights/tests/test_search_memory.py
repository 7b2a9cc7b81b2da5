"""A search's result is freed when the request ends, by reference counting: DRF's reference
cycles around the response would otherwise keep it (~1,100 dicts and lists for 55 offers)
until the cyclic garbage collector walks it, which cost about as much CPU as building it."""

import gc

import orjson
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from tests.kit.wsgi import wsgi_call

pytestmark = pytest.mark.django_db

BODY = {
    "type": "round_trip",
    "slices": [
        {"origin": "GRU", "destination": "LIS", "departureDate": "2027-03-10"},
        {"origin": "LIS", "destination": "GRU", "departureDate": "2027-03-24"},
    ],
    "passengers": [{"type": "adult", "count": 1}],
}


def wsgi_search(key: str) -> bytes:
    """One search through Django's WSGI handler, as gunicorn calls it (the test client keeps
    references of its own to the response)."""
    # As Django's test client does: the test's connection (its transaction) stays open.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        status, content = wsgi_call(
            WSGIHandler(), "POST", "/api/v1/flights/search", key=key, body=orjson.dumps(BODY)
        )
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert status.startswith("200"), content[:300]
    return content


def test_the_search_result_is_not_left_to_the_cyclic_garbage_collector(team_keys):
    wsgi_search(team_keys.test_key)  # warm: imports, caches
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage to inspect
    try:
        content = wsgi_search(team_keys.test_key)
        gc.collect()
        results = [o for o in gc.garbage if isinstance(o, dict) and "offers" in o]
        offer_objects = [o for o in gc.garbage if isinstance(o, dict) and "total_amount" in o]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert len(orjson.loads(content)["offers"]) > 10
    assert results == []
    assert offer_objects == []
