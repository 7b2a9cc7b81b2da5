"""Errors as a catalogue: one `details` shape, `request_id` equal to the `X-Request-Id` header,
and every (code, status) an answer carries listed in the catalogue, in the schema (the enum and
the operation's `x-error-codes`) and in docs/errors.md. Each kind of error is provoked through
the real stack; the test settings' ERROR_CATALOGUE_STRICT makes any uncatalogued answer in any
test fail too."""

import re

import pytest
from django.core.management import call_command
from django.test import Client as DjangoClient
from django.test import override_settings
from rest_framework.test import APIClient

from api.error_catalogue import (
    OPERATION_ERRORS,
    generated_schema,
    is_supplier_refusal,
    load_error_catalogue,
    render_markdown,
)
from api.exceptions import error_body, error_details
from api.idempotency import MAX_KEY_LENGTH
from core.exceptions import UncataloguedError

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time")]

SEARCH = "/api/v1/flights/search"


@pytest.fixture(scope="module")
def schema():
    return generated_schema()


def _operation(schema: dict, method: str, path: str) -> dict | None:
    """The operation of `method` on `path` (for a wrong method, any operation of the path)."""
    relative = path.split("?")[0].removeprefix("/api/v1")
    for template, methods in schema["paths"].items():
        pattern = "^" + re.sub(r"\\{[^/]+\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, relative):
            return methods.get(method.lower()) or next(iter(methods.values()))
    return None


def assert_error(response, status: int, code: str, *, schema=None, method="", path=""):
    """The one error shape, checked against the catalogue and the operation's schema."""
    assert response.status_code == status, response.content[:500]
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details", "request_id", "doc_url"}
    assert error["code"] == code
    assert error["request_id"] == response["X-Request-Id"]
    assert error["doc_url"] == f"http://testserver/api/v1/docs/errors/{code}"
    details = error["details"]
    assert details is None or (
        isinstance(details, dict)
        and details
        and all(
            isinstance(messages, list) and messages and all(isinstance(m, str) for m in messages)
            for messages in details.values()
        )
    ), details
    entry = load_error_catalogue().get((code, status))
    assert entry is not None and entry.matches(error["message"])
    if schema is not None:
        operation = _operation(schema, method, path)
        assert operation is not None, (method, path)
        assert code in operation["responses"][str(status)]["x-error-codes"]
    return error


def call(client, schema, method: str, path: str, status: int, code: str, **kwargs):
    response = getattr(client, method)(path, **kwargs)
    return assert_error(response, status, code, schema=schema, method=method, path=path)


def one_way(**changes):
    slice_ = {"origin": "GRU", "destination": "BSB", "departureDate": "2027-01-15", **changes}
    return {"type": "one_way", "slices": [slice_], "passengers": [{"type": "adult", "count": 1}]}


# --- The one details shape ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, None),
        ({}, None),
        ([], None),
        ({"url": "Must be https."}, {"url": ["Must be https."]}),
        ({"amount": ["A", "B"]}, {"amount": ["A", "B"]}),
        ("Request body is not valid JSON", {"body": ["Request body is not valid JSON"]}),
        (["One", "Two"], {"body": ["One", "Two"]}),
        (  # a DRF serializer's nested errors (many=True: an empty dict per valid item)
            {"passengers": [{}, {"born_on": ["Invalid date."], "document": {"number": ["Bad"]}}]},
            {"passengers[1].born_on": ["Invalid date."], "passengers[1].document.number": ["Bad"]},
        ),
        (  # a supplier's details: scalars become messages, lists of objects are indexed
            {"supplier": "duffel", "status": 422, "errors": [{"code": "x", "title": "T"}]},
            {
                "supplier": ["duffel"],
                "status": ["422"],
                "errors[0].code": ["x"],
                "errors[0].title": ["T"],
            },
        ),
    ],
)
def test_error_details_has_one_shape(given, expected):
    assert error_details(given) == expected


def test_an_uncatalogued_answer_fails_in_strict_mode(settings):
    settings.ERROR_CATALOGUE_STRICT = True
    load_error_catalogue()
    with pytest.raises(UncataloguedError):
        error_body(code="made_up", message="Made up", status=400)
    with pytest.raises(UncataloguedError):  # a catalogued code with a message of its own
        error_body(code="invalid_airport_code", message="Bad airport", status=400)
    error_body(code="supplier_error", message="No exchange rate for XYZ", status=502)  # template


# --- Each kind of error, through the stack ------------------------------------------------------


def test_serializer_validation_names_each_field(test_client, schema):
    error = call(
        test_client,
        schema,
        "get",
        "/api/v1/wallet/transactions?start_date=nope&limit=0",
        400,
        "invalid_request",
    )
    assert set(error["details"]) == {"start_date", "limit"}


def test_flight_validation_names_the_slice_field(test_client, schema):
    error = call(
        test_client,
        schema,
        "post",
        SEARCH,
        400,
        "invalid_airport_code",
        data=one_way(origin="G1U"),
        format="json",
    )
    assert error["message"] == "Invalid airport code"
    assert list(error["details"]) == ["slices[0].origin"]
    error = call(
        test_client,
        schema,
        "post",
        SEARCH,
        400,
        "departure_date_in_past",
        data=one_way(departureDate="2026-11-01"),
        format="json",
    )
    assert list(error["details"]) == ["slices[0].departureDate"]


def test_booking_validation_names_the_passenger_field(test_client, schema):
    offers = test_client.post(SEARCH, one_way(), format="json").json()["offers"]
    offer = next(o for o in offers if not o["payment_requirements"]["requires_instant_payment"])
    body = {"offerId": offer["id"], "type": "hold", "passengers": [{"id": "x"}]}
    error = call(
        test_client,
        schema,
        "post",
        "/api/v1/bookings",
        400,
        "invalid_passenger_data",
        data=body,
        format="json",
    )
    assert error["message"] == "Invalid passenger data"
    assert all(path.startswith("passengers[0]") for path in error["details"])
    body = {"offerId": "off_unknown", "type": "hold", "passengers": []}
    call(
        test_client,
        schema,
        "post",
        "/api/v1/bookings",
        404,
        "offer_not_found",
        data=body,
        format="json",
    )


def test_wallet_errors_keep_the_spec_messages(test_client, schema):
    error = call(
        test_client,
        schema,
        "post",
        "/api/v1/wallet/recharge",
        400,
        "amount_below_minimum",
        data={"amount": "50.00", "currency": "BRL", "payment_method": "pix"},
        format="json",
    )
    assert error["message"] == "Minimum amount is R$ 100.00"
    error = call(
        test_client,
        schema,
        "post",
        "/api/v1/wallet/recharge",
        400,
        "invalid_payment_method",
        data={"amount": "150.00", "currency": "BRL", "payment_method": "card"},
        format="json",
    )
    assert error["message"] == "Invalid payment method"
    error = call(
        test_client, schema, "get", "/api/v1/wallet/recharge/rch_x", 404, "recharge_not_found"
    )
    assert (error["message"], error["details"]) == ("Recharge not found", None)


def test_webhook_errors_name_the_field(test_client, schema):
    error = call(
        test_client,
        schema,
        "post",
        "/api/v1/webhooks",
        400,
        "invalid_url",
        data={"url": "http://example.com/hook", "events": ["booking.created"]},
        format="json",
    )
    assert error["message"] == "Invalid URL"
    assert error["details"] == {"url": ["An HTTPS URL of at most 2048 characters."]} or list(
        error["details"]
    ) == ["url"]
    call(test_client, schema, "get", "/api/v1/webhooks/whk_x", 404, "webhook_not_found")
    call(test_client, schema, "get", "/api/v1/events/evt_x", 404, "event_not_found")


def test_idempotency_key_errors(test_client, schema):
    error = call(
        test_client,
        schema,
        "post",
        "/api/v1/wallet/recharge",
        400,
        "invalid_request",
        data={"amount": "150.00", "currency": "BRL", "payment_method": "pix"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * (MAX_KEY_LENGTH + 1),
    )
    assert list(error["details"]) == ["Idempotency-Key"]
    first = test_client.post(
        "/api/v1/wallet/recharge",
        {"amount": "50.00", "currency": "BRL", "payment_method": "pix"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-1",
    )
    call(
        test_client,
        schema,
        "post",
        "/api/v1/wallet/recharge",
        409,
        "idempotency_key_reused",
        data={"amount": "60.00", "currency": "BRL", "payment_method": "pix"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-1",
    )
    # A replayed error is the first answer, but for its request id: this request's.
    replay = test_client.post(
        "/api/v1/wallet/recharge",
        {"amount": "50.00", "currency": "BRL", "payment_method": "pix"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-1",
    )
    assert replay["Idempotent-Replayed"] == "true"
    error = assert_error(replay, 400, "amount_below_minimum")
    assert error["request_id"] != first.json()["error"]["request_id"]
    assert {**error, "request_id": None} == {**first.json()["error"], "request_id": None}


def test_body_parser_errors_are_about_the_body(test_client, schema, settings):
    error = call(
        test_client,
        schema,
        "post",
        SEARCH,
        400,
        "invalid_request",
        data="{not json",
        content_type="application/json",
    )
    assert error["details"] == {"body": ["Request body is not valid JSON"]}
    deep = "[" * (settings.API_MAX_JSON_DEPTH + 1) + "]" * (settings.API_MAX_JSON_DEPTH + 1)
    error = call(
        test_client,
        schema,
        "post",
        SEARCH,
        400,
        "invalid_request",
        data=deep,
        content_type="application/json",
    )
    assert len(error["details"]) == 1


@pytest.mark.parametrize(
    ("method", "path", "status", "code", "kwargs"),
    [
        ("get", "/api/v1/wallet/balance", 401, "unauthorized", {}),
        ("delete", "/api/v1/wallet/balance", 405, "method_not_allowed", {"auth": True}),
        (
            "post",
            SEARCH,
            415,
            "unsupported_media_type",
            {"auth": True, "data": "x", "content_type": "text/plain"},
        ),
        (
            "post",
            SEARCH,
            413,
            "payload_too_large",
            {"auth": True, "data": "x" * (1024 * 1024 + 1), "content_type": "application/json"},
        ),
    ],
)
def test_plumbing_statuses(team_keys, schema, method, path, status, code, kwargs):
    client = APIClient()
    if kwargs.pop("auth", False):
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.test_key}")
    error = call(client, schema, method, path, status, code, **kwargs)
    assert error["details"] is None or status == 413


def test_live_key_refusals(live_client, schema, settings):
    settings.FLIGHTS_LIVE_SANDBOX = False
    error = call(
        live_client,
        schema,
        "post",
        SEARCH,
        422,
        "supplier_not_connected",
        data=one_way(),
        format="json",
    )
    assert error["details"] is None
    path = "/api/v1/wallet/recharge/rch_x/simulate-payment"
    call(live_client, schema, "post", path, 403, "test_mode_only")


@override_settings(API_RATE_LIMIT="1/minute")
def test_rate_limited_is_in_the_catalogue(test_client, schema):
    assert test_client.get("/api/v1/wallet/balance").status_code == 200
    call(test_client, schema, "get", "/api/v1/wallet/balance", 429, "rate_limited")


def test_a_supplier_refusal_is_a_catalogued_502(test_client, schema):
    """The sandbox's failing route: the supplier's code, listed on the search's 502."""
    error = call(
        test_client,
        schema,
        "post",
        SEARCH,
        502,
        "supplier_unavailable",
        data=one_way(origin="GIG", destination="SDU"),
        format="json",
    )
    assert error["details"] is None


@pytest.mark.urls("tests.plumbing_urls")
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nowhere",  # the URL resolver's 404
        "/api/v1/_plumbing/boom",  # a DRF view that crashes
        "/api/v1/_plumbing/plain-boom",  # a plain Django view that crashes (handler500)
    ],
)
def test_resolver_404_and_500s_carry_the_request_id(team_keys, path):
    client = DjangoClient(
        raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {team_keys.test_key}"
    )
    response = client.get(path)
    expected = (404, "not_found") if path.endswith("nowhere") else (500, "internal_error")
    assert_error(response, *expected)
    assert "hunter2" not in response.content.decode()


def test_an_incoming_request_id_is_the_one_in_the_body(test_client):
    incoming = "0123456789abcdef0123456789abcdef"
    response = test_client.get("/api/v1/bookings/bkg_x", HTTP_X_REQUEST_ID=incoming)
    assert assert_error(response, 404, "booking_not_found")["request_id"] == incoming


# --- The catalogue in the schema and in docs/errors.md -----------------------------------------


def test_the_schema_lists_every_code_and_each_operations_codes(schema):
    catalogue = load_error_catalogue()
    detail = schema["components"]["schemas"]["ErrorDetail"]
    assert detail["properties"]["code"]["enum"] == sorted({code for code, _ in catalogue})
    assert {"code", "message", "details", "request_id", "doc_url"} <= set(detail["required"])
    operation_ids = set()
    for methods in schema["paths"].values():
        for operation in methods.values():
            operation_ids.add(operation["operationId"])
            for status, response in operation["responses"].items():
                if int(status) < 400:
                    continue
                codes = response.get("x-error-codes")
                assert codes, (operation["operationId"], status)
                assert all((code, int(status)) in catalogue for code in codes)
                examples = response["content"]["application/json"]["examples"]
                assert {examples[code]["value"]["error"]["code"] for code in codes} == set(codes)
    assert operation_ids == set(OPERATION_ERRORS)


def test_the_spec_errors_are_catalogued_word_for_word():
    catalogue = load_error_catalogue()
    spec = {
        (400, "Minimum amount is R$ 100.00"),
        (400, "Invalid payment method"),
        (422, "Insufficient balance"),
        (422, "Daily limit exceeded"),
        (404, "Recharge not found"),
        (400, "Invalid request parameters"),
        (400, "Invalid airport code"),
        (400, "Invalid date format"),
        (400, "Departure date in the past"),
        (401, "Unauthorized"),
        (429, "Rate limit exceeded"),
        (400, "Offer expired"),
        (400, "Invalid passenger data"),
        (400, "Passport required"),
        (400, "Payment amount mismatch"),
        (409, "Booking already confirmed"),
        (409, "Booking already cancelled"),
        (400, "Invalid URL"),
        (400, "Invalid events"),
        (404, "Webhook not found"),
        (409, "URL already registered"),
        (422, "URL not reachable"),
    }
    listed = {(entry.status, message) for entry in catalogue.values() for message in entry.messages}
    assert spec <= listed


def test_docs_errors_md_is_up_to_date(schema):
    call_command("error_catalogue", "--check")
    text = render_markdown(schema)
    for (code, status), entry in load_error_catalogue().items():
        if is_supplier_refusal(entry):  # listed once, under "Supplier refusals"
            assert f"| `{code}` |" in text
        else:
            assert f"| {status} | `{code}` |" in text
