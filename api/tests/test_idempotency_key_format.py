"""The Idempotency-Key is 1 to 255 visible ASCII characters, spaces only inside: what every HTTP
stack passes through unchanged (proxies strip spaces at the ends; non-ASCII header bytes are
read as Latin-1 by WSGI). The schema declares the same pattern (docs/fuzzing.md)."""

import re

import pytest

from api.idempotency import KEY_PATTERN

pytestmark = [pytest.mark.urls("tests.plumbing_urls"), pytest.mark.django_db]

CLIENTS = "/api/v1/_plumbing/clients"
BODY = {"full_name": "Ana Souza", "email": "ana@example.com"}
GOOD = ["k", "key 1", "order-2291/retry#2", "~" * 255]
BAD = [" key", "key ", "chave-ação", "k\tk", "k" * 256]


@pytest.mark.parametrize("key", GOOD)
def test_visible_ascii_keys_are_taken(live_client, key):
    response = live_client.post(CLIENTS, BODY, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("key", BAD)
def test_other_keys_are_400(live_client, key):
    response = live_client.post(CLIENTS, BODY, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["error"]["details"]


def test_the_schema_declares_the_same_pattern(anon_client):
    schema = anon_client.get("/api/v1/schema", HTTP_ACCEPT="application/json").json()
    declared = next(
        p["schema"]
        for p in schema["paths"]["/bookings"]["post"]["parameters"]
        if p["name"] == "Idempotency-Key"
    )
    assert declared == {"type": "string", "minLength": 1, "maxLength": 255, "pattern": KEY_PATTERN}
    for key in GOOD:
        assert re.search(KEY_PATTERN, key)
    for key in BAD:
        assert not re.search(KEY_PATTERN, key) or len(key) > 255
