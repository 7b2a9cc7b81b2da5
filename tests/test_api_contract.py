"""Contracts that hold for every API operation in the OpenAPI schema, present and future."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def operations():
    """(URL path, method) of every operation: the server's `/api/v1` and the schema's path."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    [server] = schema["servers"]
    for path, methods in schema["paths"].items():
        for method in methods:
            if method in {"get", "post", "put", "patch", "delete"}:
                yield server["url"] + path, method


def test_schema_lists_the_wallet_operations():
    found = set(operations())
    assert ("/api/v1/wallet/balance", "get") in found
    assert ("/api/v1/wallet/recharge", "post") in found


def test_every_path_is_versioned_without_trailing_slash():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert schema["servers"] == [
        {"url": "/api/v1", "description": "This service (prefix with its host)"}
    ]
    for path, _ in operations():
        assert path.startswith("/api/v1/") and not path.endswith("/"), path


@pytest.mark.parametrize("header", [None, "Bearer sk_live_" + "x" * 40, "Token abc"])
def test_every_operation_requires_a_valid_key(header, team):
    client = APIClient()
    if header:
        client.credentials(HTTP_AUTHORIZATION=header)
    checked = 0
    for path, method in operations():
        url = re.sub(r"\{[^}]+\}", "rch_0000000000000000000000000", path)
        response = getattr(client, method)(url, {}, format="json")
        assert response.status_code == 401, (method, path, response.content)
        assert response.json()["error"]["message"] == "Unauthorized", (method, path)
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'
        checked += 1
    assert checked >= 5
