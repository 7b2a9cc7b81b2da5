"""The API stays the spec's English and UTC whatever the caller's Accept-Language or language
cookie (core.middleware.LocaleMiddleware; people's side: core/tests/test_i18n.py)."""

from unittest.mock import ANY

import pytest
from django.conf import settings
from django.test import Client as BrowserClient

from tests.kit.factories import fund

pytestmark = pytest.mark.django_db

PORTUGUESE = {"HTTP_ACCEPT_LANGUAGE": "pt-BR,pt;q=0.9"}


API_CALLS = [
    ("get", "/api/v1/wallet/balance", None, False),  # no key: 401
    ("get", "/api/v1/wallet/transactions?type=nonsense", None, True),
    ("post", "/api/v1/wallet/recharge", {"amount": "12,50", "currency": "BRL"}, True),
    ("post", "/api/v1/flights/search", {"type": "one_way", "slices": []}, True),
    ("get", "/api/v1/bookings/ord_unknown", None, True),
    ("get", "/api/v1/nothing-here", None, True),
]


@pytest.mark.parametrize(("method", "path", "body", "with_key"), API_CALLS)
def test_the_api_is_never_localized(team_keys, method, path, body, with_key):
    def call(**headers):
        client = BrowserClient(**headers)
        if with_key:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {team_keys.live_key}"
        kwargs = {"data": body, "content_type": "application/json"} if body else {}
        return getattr(client, method)(path, **kwargs, **headers)

    english = call()
    portuguese = call(**PORTUGUESE)
    chosen = BrowserClient()
    chosen.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt-br"  # chose Portuguese in the panel
    headers = {"HTTP_AUTHORIZATION": f"Bearer {team_keys.live_key}"} if with_key else {}
    kwargs = {"data": body, "content_type": "application/json"} if body else {}
    cookie = getattr(chosen, method)(path, **kwargs, **headers)
    assert english.status_code >= 400
    for answer in (portuguese, cookie):
        assert answer.status_code == english.status_code
        assert answer.json()["error"] == {**english.json()["error"], "request_id": ANY}
        assert "Content-Language" not in answer
        assert "Accept-Language" not in answer.get("Vary", "")


def test_api_timestamps_stay_utc_with_z(team, team_keys):
    fund(team, "100.00")
    client = BrowserClient(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}", **PORTUGUESE)
    body = client.get("/api/v1/wallet/transactions").json()
    created = body["data"]["transactions"][0]["created_at"]
    assert created.endswith("Z") and "-03:00" not in created
    balance = client.get("/api/v1/wallet/balance").json()["data"]
    assert balance["last_transaction_at"] == created
    assert balance["balance"] == "100.00"  # amounts too: the wire format, never "100,00"


def test_the_schema_is_the_same_in_any_language():
    english = BrowserClient().get("/api/v1/schema")
    portuguese = BrowserClient(**PORTUGUESE).get("/api/v1/schema")
    assert english.status_code == 200
    assert portuguese.content == english.content
