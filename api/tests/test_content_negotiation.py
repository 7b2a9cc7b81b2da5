"""api/renderers.py ApiContentNegotiation answers the usual `Accept` headers without DRF's
negotiation, and must answer exactly as DRF's would: the same renderer and media type, and for
anything else DRF's own answer (a 406 in the error shape)."""

import pytest
from django.http import Http404
from django.test import RequestFactory
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request

from api.renderers import ApiContentNegotiation, ApiJSONRenderer

ACCEPTS = [
    None,
    "",
    "*/*",
    "application/json",
    "application/json; indent=4",
    "application/*",
    "text/html",
    "text/html, application/json;q=0.9",
    "application/xml",
]


def answer(negotiation, request):
    try:
        renderer, media_type = negotiation.select_renderer(request, [ApiJSONRenderer()])
    except NotAcceptable:
        return "406"
    except Http404:  # an unknown ?format=
        return "404"
    return type(renderer), media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", ["", "?format=json", "?format=xml"])
def test_the_same_answer_as_drfs_negotiation(accept, query):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(RequestFactory().get(f"/api/v1/wallet/balance{query}", **headers))
    assert answer(ApiContentNegotiation(), request) == answer(DefaultContentNegotiation(), request)


@pytest.mark.django_db
def test_an_unacceptable_accept_is_a_406_in_the_error_shape(live_client):
    response = live_client.get("/api/v1/wallet/balance", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert response.json()["success"] is False
    assert response.json()["error"]["code"] == "not_acceptable"


@pytest.mark.django_db
def test_the_usual_accept_is_answered_in_json(live_client):
    response = live_client.get("/api/v1/wallet/balance", HTTP_ACCEPT="*/*")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()["success"] is True
