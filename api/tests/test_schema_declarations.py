"""What the schema declares about every answer and body, checked against what the service does:
`X-Request-Id` on every answer, `Idempotent-Replayed` on a replay, the bounds of the slices and
passengers lists, and unknown keys in a body (ignored, as `additionalProperties: true` says)."""

import pytest

from api.error_catalogue import generated_schema
from flights.apis import MAX_PASSENGERS

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return generated_schema()


def _operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if isinstance(operation, dict) and "operationId" in operation:
                yield path, method, operation


def test_every_answer_declares_its_request_id_as_always_present(schema):
    for path, method, operation in _operations(schema):
        for status, response in operation["responses"].items():
            header = response.get("headers", {}).get("X-Request-Id")
            assert header is not None and header.get("required") is True, (path, method, status)


def test_operations_with_an_idempotency_key_declare_the_replay_header(schema):
    declared = 0
    for _, _, operation in _operations(schema):
        keyed = any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", []))
        for status, response in operation["responses"].items():
            has_header = "Idempotent-Replayed" in response.get("headers", {})
            stored = not status.startswith("5") and status != "429"
            assert has_header == (keyed and stored), (operation["operationId"], status)
            declared += has_header
    assert declared > 0


def test_the_slices_and_passengers_lists_declare_their_bounds(schema):
    components = schema["components"]["schemas"]
    search = components["SearchInputRequest"]["properties"]
    assert (search["slices"]["minItems"], search["slices"]["maxItems"]) == (1, 6)
    assert (search["passengers"]["minItems"], search["passengers"]["maxItems"]) == (
        1,
        MAX_PASSENGERS,
    )
    booking = components["BookingCreateInputRequest"]["properties"]["passengers"]
    assert (booking["minItems"], booking["maxItems"]) == (1, MAX_PASSENGERS)


def test_request_bodies_declare_that_unknown_keys_are_ignored(schema):
    components = schema["components"]["schemas"]
    for path, method, operation in _operations(schema):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is None:
            continue
        name = body["schema"]["$ref"].rsplit("/", 1)[-1]
        assert components[name].get("additionalProperties") is True, (path, method, name)


def test_an_unknown_key_in_a_body_is_ignored(test_client):
    response = test_client.post(
        "/api/v1/wallet/recharge",
        {"amount": "150.00", "currency": "BRL", "payment_method": "pix", "no_such_field": 1},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert "no_such_field" not in response.json()["data"]
