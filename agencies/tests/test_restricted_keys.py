"""Restricted API keys (docs/decisions.md, "Restricted API keys"): a key with permissions is
refused (403 `permission_denied`) outside them, on every route and from the process's key cache
too; keys without permissions keep full access; the panel makes them; the key list and
`api_key.created` show them."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client as BrowserClient
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from rest_framework.test import APIClient

from agencies import key_cache
from agencies.authentication import api_key_for_secret
from agencies.models import ApiKey, hash_secret
from agencies.services import api_key_create, api_key_revoke
from api.apis import ApiView
from api.key_permissions import PERMISSIONS, permission_for
from tests.kit import panel
from webhooks.models import Event, EventType

pytestmark = pytest.mark.django_db

# One route per family and kind, as a restricted key meets them: (method, path, permission).
ROUTES = [
    ("post", "/api/v1/flights/search", "flights:read"),
    ("get", "/api/v1/offers/off_x/seat_maps", "flights:read"),
    ("get", "/api/v1/bookings", "bookings:read"),
    ("get", "/api/v1/bookings/bkg_x", "bookings:read"),
    ("post", "/api/v1/bookings", "bookings:write"),
    ("delete", "/api/v1/bookings/bkg_x", "bookings:write"),
    ("post", "/api/v1/bookings/bkg_x/change_requests", "bookings:write"),
    ("get", "/api/v1/wallet/balance", "wallet:read"),
    ("get", "/api/v1/wallet/transactions", "wallet:read"),
    ("get", "/api/v1/wallet/recharge/rch_x", "wallet:read"),
    ("post", "/api/v1/wallet/recharge", "wallet:write"),
    ("delete", "/api/v1/wallet/recharge/rch_x", "wallet:write"),
    ("post", "/api/v1/wallet/recharge/rch_x/simulate-payment", "wallet:write"),
    ("get", "/api/v1/webhooks", "webhooks:read"),
    ("post", "/api/v1/webhooks", "webhooks:write"),
    ("delete", "/api/v1/webhooks/wh_x", "webhooks:write"),
    ("post", "/api/v1/webhooks/wh_x/recover", "webhooks:write"),
    ("post", "/api/v1/webhooks/wh_x/rotate_secret", "webhooks:write"),
    ("post", "/api/v1/webhooks/wh_x/test", "webhooks:write"),
    ("get", "/api/v1/events", "events:read"),
    ("get", "/api/v1/events/evt_x", "events:read"),
    ("get", "/api/v1/clients", "clients:read"),
    ("post", "/api/v1/clients", "clients:write"),
    ("patch", "/api/v1/clients/cli_x", "clients:write"),
    ("get", "/api/v1/reports/sales", "reports:read"),
    ("get", "/api/v1/reports/nfse", "reports:read"),
]
ROUTE_IDS = [f"{method.upper()} {path}" for method, path, _ in ROUTES]

# API routes that no API key reaches (their own signatures or tokens, or none): the schema and
# its page, the suppliers' and payment providers' notifications, the payers' pages.
NOT_KEYED = {
    "schema",
    "docs",
    "error-reference",  # the error reference every error's doc_url points at: public
    "error-reference-entry",
    "duffel-webhooks",
    "payment-notifications",
    "pix-qr",
    "boleto-page",
    "boleto-pdf",
}


@pytest.fixture(autouse=True)
def _new_process():
    key_cache.clear_process_cache()  # each test starts as a fresh process
    yield
    key_cache.clear_process_cache()


def client_with(team, permissions) -> APIClient:
    _, secret = api_key_create(team=team, live_mode=False, permissions=permissions)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def send(client, method, path, **kwargs):
    return getattr(client, method)(path, format="json", **kwargs)


def assert_refused(response, permission):
    assert response.status_code == 403, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "permission_denied"
    assert error["message"] == f"This API key does not have the {permission} permission"
    assert error["details"] == {"permission": [permission]}


def assert_let_through(response):
    """Past the permission check: whatever the route answers next (an empty body's 400, an
    unknown id's 404, a list's 200), it is not the key's refusal."""
    assert response.status_code != 403, response.content[:300]
    assert response.status_code != 401


# --- Every route declares a permission ---------------------------------------------------


def api_routes():
    """(name, callback) of every route under /api/v1/."""

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.name, pattern.callback

    return [
        (name, callback)
        for route, name, callback in walk(get_resolver().url_patterns)
        if route.startswith("api/v1/")
    ]


def test_every_api_route_declares_a_permission_for_each_of_its_methods():
    keyed = [(name, cb) for name, cb in api_routes() if name not in NOT_KEYED]
    assert len(keyed) >= 25  # the walk found the API (not an empty list passing trivially)
    for name, callback in keyed:
        view = getattr(callback, "view_class", None)
        assert view is not None and issubclass(view, ApiView), f"{name} is not an ApiView"
        methods = [m for m in view.http_method_names if m != "options" and hasattr(view, m)]
        assert methods, name
        for method in methods:
            assert view.required_permission(method) in PERMISSIONS, (name, method)


def test_an_undeclared_view_or_an_unknown_permission_has_none():
    with pytest.raises(LookupError):
        permission_for(resource=None, overrides={}, method="GET")
    with pytest.raises(LookupError):
        permission_for(resource="payouts", overrides={}, method="POST")
    assert permission_for(resource="wallet", overrides={}, method="POST") == "wallet:write"
    assert permission_for(resource="wallet", overrides={}, method="head") == "wallet:read"
    assert (
        permission_for(resource="flights", overrides={"POST": "flights:read"}, method="POST")
        == "flights:read"
    )


def test_the_routes_tested_here_are_mapped_as_they_say():
    for method, path, permission in ROUTES:
        view = resolve(path).func.view_class  # type: ignore[attr-defined]
        assert view.required_permission(method) == permission, path


# --- Refused outside, allowed within --------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "permission"), ROUTES, ids=ROUTE_IDS)
def test_a_key_with_every_other_permission_is_refused(team, method, path, permission):
    client = client_with(team, [p for p in PERMISSIONS if p != permission])
    assert_refused(send(client, method, path), permission)


@pytest.mark.parametrize(("method", "path", "permission"), ROUTES, ids=ROUTE_IDS)
def test_a_key_with_only_that_permission_is_let_through(team, method, path, permission):
    assert_let_through(send(client_with(team, [permission]), method, path))


@pytest.mark.parametrize(("method", "path", "permission"), ROUTES, ids=ROUTE_IDS)
def test_a_full_access_key_is_let_through_everywhere(team, test_client, method, path, permission):
    assert ApiKey.objects.get(team=team, live_mode=False).permissions == []  # as every old key
    assert_let_through(send(test_client, method, path))


def test_a_read_permission_does_not_grant_the_write(team):
    client = client_with(team, ["wallet:read"])
    assert client.get("/api/v1/wallet/balance").status_code == 200
    assert_refused(
        client.post("/api/v1/wallet/recharge", {"amount": "100.00"}, format="json"),
        "wallet:write",
    )


def test_a_refused_request_claims_no_idempotency_key(team, test_client):
    body = {"amount": "100.00", "payment_method": "pix"}
    headers = {"Idempotency-Key": "one-recharge"}
    refused = client_with(team, ["wallet:read"]).post(
        "/api/v1/wallet/recharge", body, format="json", headers=headers
    )
    assert_refused(refused, "wallet:write")
    # The same key with a key that may: not a replay of the refusal (nor a conflict).
    answer = test_client.post("/api/v1/wallet/recharge", {}, format="json", headers=headers)
    assert answer.status_code == 400 and "Idempotent-Replayed" not in answer


# --- The process's key cache ----------------------------------------------------------------


def test_the_cached_key_carries_its_permissions(team):
    client = client_with(team, ["wallet:read"])
    assert client.get("/api/v1/wallet/balance").status_code == 200  # read from the database
    assert_refused(client.get("/api/v1/events"), "events:read")
    with CaptureQueriesContext(connection) as queries:
        refused = client.get("/api/v1/events")
        allowed = client.get("/api/v1/wallet/balance")
    assert not any("agencies_apikey" in q["sql"] for q in queries.captured_queries)  # cached
    assert_refused(refused, "events:read")
    assert allowed.status_code == 200


def test_permissions_changed_on_a_cached_key_are_seen_by_the_next_request(team):
    client = client_with(team, ["wallet:read"])
    assert client.get("/api/v1/wallet/balance").status_code == 200  # cached
    key = ApiKey.objects.get(team=team, permissions=["wallet:read"])
    key.permissions = ["events:read"]  # support, in a shell: the save forgets the cache
    key.save()
    assert_refused(client.get("/api/v1/wallet/balance"), "wallet:read")
    assert client.get("/api/v1/events").status_code == 200
    key.permissions = []
    key.save()
    assert client.get("/api/v1/wallet/balance").status_code == 200


def test_a_request_cannot_change_the_cached_permissions_of_the_next(team):
    _, secret = api_key_create(team=team, live_mode=False, permissions=["wallet:read"])
    api_key_for_secret(secret)  # cached
    first = api_key_for_secret(secret)
    assert first is not None
    first.permissions.append("bookings:write")
    second = api_key_for_secret(secret)
    assert second is not None and second.permissions == ["wallet:read"]


def test_a_revoked_restricted_key_is_refused_as_any_key(team):
    client = client_with(team, ["wallet:read"])
    assert client.get("/api/v1/wallet/balance").status_code == 200
    api_key_revoke(api_key=ApiKey.objects.get(team=team, permissions=["wallet:read"]))
    assert client.get("/api/v1/wallet/balance").status_code == 401


# --- Creation, the event --------------------------------------------------------------------


def test_the_service_keeps_the_catalogue_order_and_refuses_unknown_permissions(team):
    key, _ = api_key_create(
        team=team, live_mode=False, permissions=["wallet:read", "bookings:read", "wallet:read"]
    )
    assert key.permissions == ["bookings:read", "wallet:read"]
    with pytest.raises(ValidationError, match="payouts:write"):
        api_key_create(team=team, live_mode=False, permissions=["payouts:write"])


def test_api_key_created_names_the_permissions_or_null_for_full_access(team):
    restricted, _ = api_key_create(team=team, live_mode=True, permissions=["events:read"])
    full, _ = api_key_create(team=team, live_mode=True, name="Full")
    events = Event.objects.filter(type=EventType.API_KEY_CREATED)
    by_key = {event.data_object["id"]: event.data_object for event in events}
    assert by_key[restricted.id]["permissions"] == ["events:read"]
    assert by_key[full.id]["permissions"] is None


# --- The panel --------------------------------------------------------------------------------


def owner_browser(owner) -> BrowserClient:
    return panel.browser_for(owner, language="en")  # the English texts below


def test_the_panel_creates_a_restricted_key_and_lists_its_permissions(team, team_owner):
    browser = owner_browser(team_owner)
    add = reverse("admin:agencies_apikey_add")
    form = browser.get(add)
    assert form.context["adminform"].form["access"].value() == "full"  # the default
    response = browser.post(
        add,
        {
            "name": "Search only",
            "live_mode": "on",  # the list shows live keys first
            "access": "restricted",
            "permissions": ["flights:read", "bookings:read"],
        },
    )
    assert response.status_code == 200, response.content[:500]
    secret = re.findall(r"sk_live_[A-Za-z0-9]{40}", response.content.decode())[0]
    key = ApiKey.objects.get(secret_hash=hash_secret(secret))
    assert key.permissions == ["flights:read", "bookings:read"] and key.team == team
    event = Event.objects.get(type=EventType.API_KEY_CREATED, data_object__id=key.id)
    assert event.data_object["permissions"] == ["flights:read", "bookings:read"]
    listing = browser.get(reverse("admin:agencies_apikey_changelist")).content.decode()
    assert "flights:read, bookings:read" in listing and "Full access" in listing
    page = browser.get(reverse("admin:agencies_apikey_change", args=[key.pk])).content.decode()
    assert "flights:read, bookings:read" in page
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert_refused(client.get("/api/v1/wallet/balance"), "wallet:read")


def test_the_panel_keeps_full_access_by_default(team, team_owner):
    browser = owner_browser(team_owner)
    response = browser.post(
        reverse("admin:agencies_apikey_add"), {"name": "Everything", "access": "full"}
    )
    assert response.status_code == 200
    assert ApiKey.objects.get(name="Everything").permissions == []


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"access": "restricted"}, "permissions", "Check at least one permission."),
        (
            {"access": "full", "permissions": ["events:read"]},
            "access",
            "Choose “Restricted” to limit the key to the permissions checked.",
        ),
        (
            {"access": "restricted", "permissions": ["payouts:write"]},
            "permissions",
            "payouts:write",
        ),
    ],
)
def test_the_panel_refuses_an_unclear_choice(team, team_owner, data, field, message):
    browser = owner_browser(team_owner)
    before = ApiKey.objects.count()
    response = browser.post(reverse("admin:agencies_apikey_add"), {"name": "Unclear", **data})
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert message in response.content.decode()  # in the request's language (English)
    assert ApiKey.objects.count() == before


def test_the_panel_form_speaks_portuguese(team, team_owner):
    browser = panel.browser_for(team_owner)  # the panel's default language
    page = browser.get(reverse("admin:agencies_apikey_add")).content.decode()
    assert "Acesso total" in page and "Consultar reservas" in page
