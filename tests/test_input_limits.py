"""Every bad input is a clear 4xx in the error shape, never a 500, and stores nothing (issue 12,
item 3). One test per reproduction of the issue; on PostgreSQL the NUL characters and the
over-long strings were 500s (SQLite stores them), so run these there too."""

import json

import pytest
from django.apps import apps
from django.test import Client

from agencies.models import Client as AgencyClient
from bookings.models import Booking
from tests.kit.factories import fund
from tests.kit.passengers import passenger
from webhooks.models import WebhookEndpoint

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

PROJECT_APPS = ("agencies", "wallet", "flights", "bookings", "webhooks", "core")


def row_counts() -> dict[str, int]:
    """Rows of every model of ours: a refused request must leave all of them unchanged."""
    return {
        model._meta.label: model.objects.count()
        for app in PROJECT_APPS
        for model in apps.get_app_config(app).get_models()
    }


def refused(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["success"] is False
    assert set(body["error"]) == {"code", "message", "details", "request_id", "doc_url"}
    assert body["error"]["request_id"] == response["X-Request-Id"]
    assert isinstance(body["error"]["code"], str) and isinstance(body["error"]["message"], str)
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def post(client, path, body, **headers):
    return client.post(path, body, format="json", headers=headers)


def search_offer(client) -> dict:
    body = {
        "type": "one_way",
        "slices": [{"origin": "GRU", "destination": "BSB", "departureDate": "2027-01-15"}],
        "passengers": [{"type": "adult", "count": 1}],
    }
    offers = post(client, "/api/v1/flights/search", body).json()["offers"]
    return next(o for o in offers if not o["payment_requirements"]["requires_instant_payment"])


def booking_body(offer, **overrides):
    body = {
        "offerId": offer["id"],
        "type": "hold",
        "passengers": [passenger(offer["passengers"][0]["id"])],
    }
    return {**body, **overrides}


# --- NUL characters ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/boleto/x%00",
        "/api/v1/boleto/x%00/pdf",
        "/api/v1/pix/qr/rch_%00",
        "/api/v1/wallet/recharge/rch_x%00",
        "/api/v1/bookings/ord_%00",
        "/api/v1/webhooks/wh_%00",
        "/api/v1/wallet/transactions?type=credit%00",
        "/api/v1/bookings?status=pending%00",
    ],
)
def test_a_nul_in_the_path_or_query_is_400(path, anon_client, live_client):
    before = row_counts()
    for client in (anon_client, live_client):  # unauthenticated too: before any lookup
        error = refused(client.get(path), 400, "invalid_request")
        assert "NUL" in next(iter(error["details"].values()))[0]
    assert row_counts() == before


def test_a_nul_in_the_offer_id_passenger_name_or_metadata_is_400(live_client, team):
    offer = search_offer(live_client)
    pid = offer["passengers"][0]["id"]
    before = row_counts()
    cases = {
        "offerId": booking_body(offer, offerId=offer["id"] + "\x00"),
        "passengers[0].given_name": booking_body(
            offer, passengers=[passenger(pid, given_name="A\x00na")]
        ),
        "passengers[0].family_name": booking_body(
            offer, passengers=[passenger(pid, family_name="\x00")]
        ),
        "metadata.ref": booking_body(offer, metadata={"ref": "A\x00"}),
        "metadata": booking_body(offer, metadata={"r\x00ef": "A"}),
    }
    for field, body in cases.items():
        error = refused(post(live_client, "/api/v1/bookings", body), 400, "invalid_request")
        assert field in error["details"], (field, error)
    assert row_counts() == before


def test_a_nul_in_a_webhook_url_is_400(live_client):
    before = row_counts()
    for url in ("https://hooks.example.com/a\x00b", "https://hooks\x00.example.com/"):
        body = {"url": url, "events": ["booking.created"]}
        refused(post(live_client, "/api/v1/webhooks", body), 400, "invalid_request")
    assert row_counts() == before
    assert not WebhookEndpoint.objects.exists()


def test_an_unpaired_surrogate_in_a_string_is_400(live_client):
    raw = b'{"amount": "\\ud800", "currency": "BRL", "payment_method": "pix"}'
    response = live_client.post("/api/v1/wallet/recharge", raw, content_type="application/json")
    assert refused(response, 400, "invalid_request")["details"] == {
        "amount": ["Must not contain NUL characters or unpaired surrogates."]
    }


# --- Size, nesting, numbers --------------------------------------------------------------------


@pytest.mark.parametrize("size", [1024 * 1024 + 1, 2_600_000])
def test_a_body_over_one_mebibyte_is_413_before_it_is_read(size, anon_client, live_client):
    body = b'{"url": "https://x.example", "pad": "' + b"a" * size + b'"}'
    before = row_counts()
    for client in (anon_client, live_client):
        response = client.post("/api/v1/webhooks", body, content_type="application/json")
        error = refused(response, 413, "payload_too_large")
        assert error == {
            "code": "payload_too_large",
            "message": "Request body too large",
            "details": {"body": [f"At most {1024 * 1024} bytes."]},
            "request_id": response["X-Request-Id"],
            "doc_url": "http://testserver/api/v1/docs/errors/payload_too_large",
        }
    assert row_counts() == before


def test_a_body_of_one_mebibyte_is_read(live_client):
    body = json.dumps({"amount": "x", "pad": "a" * (1024 * 1024 - 40)}).encode()
    assert len(body) <= 1024 * 1024
    response = live_client.post("/api/v1/wallet/recharge", body, content_type="application/json")
    refused(response, 400, "invalid_request")  # the amount, not the size


@pytest.mark.parametrize("depth", [17, 100, 5000, 200_000])
def test_json_nested_deeper_than_16_levels_is_400(depth, live_client):
    body = b"[" * (depth - 1) + b'{"a": 1}' + b"]" * (depth - 1)
    before = row_counts()
    for path in ("/api/v1/bookings", "/api/v1/flights/search", "/api/v1/webhooks"):
        response = live_client.post(path, body, content_type="application/json")
        error = refused(response, 400, "invalid_request")
        assert "Nested deeper than 16 levels." in json.dumps(error["details"])
    assert row_counts() == before


def test_json_nested_16_levels_is_parsed(live_client):
    body = {"type": "one_way", "x": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}  # 16 levels
    response = post(live_client, "/api/v1/flights/search", body)
    assert refused(response, 400)["details"] == {
        "slices": ["Must be a list of {origin, destination, departureDate}."]
    }


@pytest.mark.parametrize(
    "raw, problem",
    [
        (b'{"amount": 1e999}', "Numbers must be finite."),
        (b'{"amount": -1e999}', "Numbers must be finite."),
        (b'{"amount": 18446744073709551616}', "Integers must fit in 64 bits."),
    ],
)
def test_numbers_that_cannot_be_stored_or_rendered_are_400(raw, problem, live_client):
    response = live_client.post("/api/v1/wallet/recharge", raw, content_type="application/json")
    assert refused(response, 400, "invalid_request")["details"] == {"amount": [problem]}


# --- Dates and pages ---------------------------------------------------------------------------


def test_a_departure_date_of_9999_12_31_or_past_a_year_is_400(live_client):
    before = row_counts()
    for day in ("9999-12-31", "2027-11-23"):  # today is 2026-11-22: 366 days ahead
        body = {
            "type": "one_way",
            "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": day}],
            "passengers": [{"type": "adult", "count": 1}],
        }
        error = refused(post(live_client, "/api/v1/flights/search", body), 400, "invalid_request")
        assert error["details"] == {
            "slices[0].departureDate": ["Must be at most 365 days ahead (by 2027-11-22)."]
        }
    assert row_counts() == before
    body["slices"][0]["departureDate"] = "2027-11-22"
    assert post(live_client, "/api/v1/flights/search", body).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/wallet/transactions?end_date=9999-12-31",
        "/api/v1/wallet/transactions?start_date=9999-12-31",
        "/api/v1/wallet/transactions?start_date=0001-01-01",
        "/api/v1/bookings?created_before=9999-12-31",
        "/api/v1/bookings?created_after=9999-12-31",
        "/api/v1/bookings?created_after=%D9%A2%D9%A0%D9%A2%D9%A6-01-01",  # Arabic-Indic digits
    ],
)
def test_date_filters_out_of_range_are_400(path, live_client):
    error = refused(live_client.get(path), 400, "invalid_request")
    assert "1900-01-01 to 2999-12-31" in json.dumps(error["details"])


def test_date_filters_at_the_bounds_are_accepted(live_client):
    path = "/api/v1/wallet/transactions?start_date=1900-01-01&end_date=2999-12-31"
    assert live_client.get(path).status_code == 200
    assert live_client.get("/api/v1/bookings?created_before=2999-12-31").status_code == 200


@pytest.mark.parametrize("page", [str(2**64), str(2**31), "9" * 30, "٣", " 3", "+3", "3.0"])
def test_a_page_that_is_not_a_small_ascii_integer_is_400(page, live_client):
    for path in ("/api/v1/wallet/transactions", "/api/v1/bookings"):
        error = refused(live_client.get(path, {"page": page}), 400, "invalid_request")
        assert "page" in error["details"]


def test_the_last_page_number_is_an_empty_page(live_client):
    response = live_client.get("/api/v1/bookings", {"page": str(2**31 - 1)})
    assert response.status_code == 200 and response.json()["data"] == []


# --- Lengths of what is stored -----------------------------------------------------------------


def test_names_and_emails_longer_than_their_columns_are_400(live_client):
    offer = search_offer(live_client)
    pid = offer["passengers"][0]["id"]
    before = row_counts()
    long_email = "a" * 245 + "@example.com"  # 257 characters
    for field, value, problem in [
        ("given_name", "A" * 101, "At most 100 characters."),
        ("family_name", "S" * 101, "At most 100 characters."),
        ("email", long_email, "At most 254 characters."),
        ("given_name", "Ana\nMaria", "Must not contain control characters."),
    ]:
        body = booking_body(offer, passengers=[passenger(pid, **{field: value})])
        error = refused(post(live_client, "/api/v1/bookings", body), 400, "invalid_passenger_data")
        assert error["details"] == {f"passengers[0].{field}": [problem]}
    assert row_counts() == before


def test_two_names_of_100_characters_make_a_client(live_client):
    offer = search_offer(live_client)
    pid = offer["passengers"][0]["id"]
    email = "b" * 242 + "@example.com"  # 254 characters
    people = [passenger(pid, given_name="A" * 100, family_name="S" * 100, email=email)]
    response = post(live_client, "/api/v1/bookings", booking_body(offer, passengers=people))
    assert response.status_code == 201, response.content
    client = AgencyClient.objects.get()
    assert client.full_name == "A" * 100 + " " + "S" * 100 and client.email == email


# --- Methods and paths -------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/v2/bookings", "/api/"])
def test_writing_to_an_unknown_api_path_is_the_json_404(method, path, team_keys):
    # Django's test client skips CSRF unless asked: a real client does not.
    for headers in ({}, {"Authorization": f"Bearer {team_keys.live_key}"}):
        client = Client(enforce_csrf_checks=True, headers=headers)
        response = getattr(client, method)(path, "{}", content_type="application/json")
        refused(response, 404, "not_found")


def test_writing_to_a_payment_page_is_the_json_405(anon_client):
    client = Client(enforce_csrf_checks=True)
    for path in ("/api/v1/boleto/rch_x", "/api/v1/boleto/rch_x/pdf", "/api/v1/pix/qr/rch_x"):
        response = client.post(path, "{}", content_type="application/json")
        refused(response, 405, "method_not_allowed")
        assert response["Allow"] == "GET, HEAD" or response["Allow"] == "GET"


@pytest.mark.parametrize("key", ["", "\x01", "k" * 256])
def test_a_wrong_method_is_405_before_a_bad_idempotency_key(key, live_client):
    for method, path in [
        ("put", "/api/v1/wallet/balance"),
        ("post", "/api/v1/bookings/ord_x"),
        ("delete", "/api/v1/flights/search"),
    ]:
        response = getattr(live_client, method)(path, headers={"Idempotency-Key": key})
        refused(response, 405, "method_not_allowed")
    response = live_client.post(
        "/api/v1/wallet/recharge", {}, format="json", headers={"Idempotency-Key": key}
    )
    refused(response, 400, "invalid_request")  # a method that exists: the key is checked


# --- ASCII digits ------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", ["٣٠٠", "३००", "３００", "300\n", "٣٠٠.٠٠"])
def test_an_amount_takes_ascii_digits_only(amount, live_client):
    before = row_counts()
    body = {"amount": amount, "currency": "BRL", "payment_method": "pix"}
    error = refused(post(live_client, "/api/v1/wallet/recharge", body), 400, "invalid_request")
    assert "amount" in error["details"]
    assert row_counts() == before


def test_phone_numbers_and_dates_take_ascii_digits_only(live_client):
    offer = search_offer(live_client)
    pid = offer["passengers"][0]["id"]
    before = row_counts()
    for field, value in [
        ("phone_number", "+٥٥١١٩٨٧٦٥٤٣٢١"),
        ("phone_number", "+5511987654321\n"),
        ("born_on", "١٩٩٠-05-01"),
    ]:
        body = booking_body(offer, passengers=[passenger(pid, **{field: value})])
        error = refused(post(live_client, "/api/v1/bookings", body), 400, "invalid_passenger_data")
        assert list(error["details"]) == [f"passengers[0].{field}"]
    search = {
        "type": "one_way",
        "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": "٢٠٢٧-01-15"}],
        "passengers": [{"type": "adult", "count": 1}],
    }
    refused(post(live_client, "/api/v1/flights/search", search), 400, "invalid_date_format")
    assert row_counts() == before


# --- metadata and lists ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "metadata, field",
    [
        ({f"k{i}": "v" for i in range(51)}, "metadata"),
        ({"k" * 41: "v"}, "metadata"),
        ({"": "v"}, "metadata"),
        ({"note": "v" * 501}, "metadata.note"),
        ({"note": {"nested": "no"}}, "metadata.note"),
        ({"note": ["no"]}, "metadata.note"),
        ({"count": 1}, "metadata.count"),
        ({"vip": True}, "metadata.vip"),
        ({"note": None}, "metadata.note"),
        ({"client_id": 12}, "metadata.client_id"),
        ("ref", "metadata"),
    ],
)
def test_metadata_over_its_limits_is_400(metadata, field, live_client):
    offer = search_offer(live_client)
    before = row_counts()
    body = booking_body(offer, metadata=metadata)
    error = refused(post(live_client, "/api/v1/bookings", body), 400, "invalid_request")
    assert list(error["details"]) == [field]
    assert row_counts() == before


def test_metadata_at_its_limits_is_kept(live_client):
    offer = search_offer(live_client)
    metadata = {f"{i:02d}" + "k" * 38: "v" * 500 for i in range(50)}  # keys of 40 characters
    response = post(live_client, "/api/v1/bookings", booking_body(offer, metadata=metadata))
    assert response.status_code == 201, response.content
    assert response.json()["metadata"] == metadata


def test_at_most_10_loyalty_accounts_and_10_documents_per_passenger(live_client, team):
    fund(team, "1000.00")
    offer = search_offer(live_client)
    pid = offer["passengers"][0]["id"]
    account = {"airline_iata_code": "LA", "account_number": "1234"}
    document = {
        "type": "tax_id",
        "unique_identifier": "52998224725",  # a valid CPF: the count is what is refused
        "issuing_country_code": "BR",
        "expires_on": "2031-01-01",
    }
    before = row_counts()
    for field, item in (("loyalty_programme_accounts", account), ("identity_documents", document)):
        body = booking_body(offer, passengers=[passenger(pid, **{field: [item] * 11})])
        error = refused(post(live_client, "/api/v1/bookings", body), 400, "invalid_passenger_data")
        assert error["details"] == {f"passengers[0].{field}": ["A list of at most 10."]}
    long_number = {**account, "account_number": "1" * 51}
    body = booking_body(
        offer, passengers=[passenger(pid, loyalty_programme_accounts=[long_number])]
    )
    refused(post(live_client, "/api/v1/bookings", body), 400, "invalid_passenger_data")
    assert row_counts() == before
    ten = passenger(
        pid, loyalty_programme_accounts=[account] * 10, identity_documents=[document] * 10
    )
    response = post(live_client, "/api/v1/bookings", booking_body(offer, passengers=[ten]))
    assert response.status_code == 201, response.content
    assert Booking.objects.count() == 1
