"""One contract per input: each limit of a request body is written once, in its view's input
serializer, which is both the validation and the OpenAPI schema. Here the limits are read from
the generated schema; they are the constants the validation uses, and requests at the limit
pass while one more is refused with the spec's words."""

import itertools

import pytest
from drf_spectacular.generators import SchemaGenerator

from bookings import apis as bookings_apis
from bookings.models import BookingPassenger
from core import metadata as metadata_limits
from flights import apis as flights_apis
from tests.kit.factories import fund

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def properties(schema, component: str) -> dict:
    return schema["components"]["schemas"][component]["properties"]


def test_the_schema_states_the_limits_the_validation_uses(schema):
    body = properties(schema, "BookingCreateInputRequest")
    metadata = body["metadata"]
    assert metadata["maxProperties"] == metadata_limits.MAX_METADATA_KEYS == 50
    assert (
        metadata["additionalProperties"]["maxLength"] == metadata_limits.MAX_METADATA_VALUE_LENGTH
    )
    # Keys' lengths: OpenAPI 3.0 has no propertyNames; the description says it.
    assert (
        f"at most {metadata_limits.MAX_METADATA_KEYS} keys of at most "
        f"{metadata_limits.MAX_METADATA_KEY_LENGTH} characters, values of at most "
        f"{metadata_limits.MAX_METADATA_VALUE_LENGTH}" in metadata["description"]
    )
    assert body["payments"]["minItems"] == body["payments"]["maxItems"] == 1

    passenger = properties(schema, "PassengerInputRequest")
    column = BookingPassenger._meta.get_field
    assert passenger["given_name"]["maxLength"] == bookings_apis.MAX_NAME_LENGTH
    assert passenger["given_name"]["maxLength"] == column("given_name").max_length
    assert passenger["family_name"]["maxLength"] == column("family_name").max_length
    assert passenger["email"]["maxLength"] == bookings_apis.MAX_EMAIL_LENGTH
    assert passenger["email"]["maxLength"] == column("email").max_length
    assert passenger["identity_documents"]["maxItems"] == bookings_apis.MAX_DOCUMENTS
    assert passenger["loyalty_programme_accounts"]["maxItems"] == bookings_apis.MAX_LOYALTY_ACCOUNTS
    document = properties(schema, "IdentityDocumentInputRequest")
    assert document["unique_identifier"]["maxLength"] == bookings_apis.MAX_IDENTIFIER_LENGTH

    search = properties(schema, "SearchInputRequest")
    assert search["slices"]["maxItems"] == max(high for _, high in flights_apis.SLICES.values())
    count = properties(schema, "SearchPassengerInputRequest")["count"]
    assert count["maximum"] == flights_apis.MAX_SEATED_PASSENGERS
    assert f"at most {flights_apis.MAX_SEATED_PASSENGERS}" in search["passengers"]["description"]
    slice_ = properties(schema, "SearchSliceInputRequest")
    assert f"at most {flights_apis.MAX_DAYS_AHEAD} days" in slice_["departureDate"]["description"]


def test_the_schema_enums_are_the_choices(schema):
    from bookings.models import Booking
    from flights.models import CabinClass, PassengerType, TripType
    from webhooks.models import SUBSCRIBABLE_EVENT_TYPES

    components = schema["components"]["schemas"]
    assert components["CabinClassEnum"]["enum"] == CabinClass.values
    assert components["PassengerTypeEnum"]["enum"] == PassengerType.values
    assert components["TripTypeEnum"]["enum"] == TripType.values
    assert components["BookingStatusEnum"]["enum"] == Booking.Status.values
    assert components["BookingTypeEnum"]["enum"] == Booking.Type.values
    assert components["GenderEnum"]["enum"] == BookingPassenger.Gender.values
    assert components["TitleEnum"]["enum"] == BookingPassenger.Title.values
    assert set(components["EventTypeEnum"]["enum"]) == SUBSCRIBABLE_EVENT_TYPES


# --- At the limit and one past it, the limit read from the schema ------------------------------


def holdable_offers(client, count: int) -> list[dict]:
    body = {
        "type": "one_way",
        "slices": [{"origin": "GRU", "destination": "BSB", "departureDate": "2027-01-15"}],
        "passengers": [{"type": "adult", "count": 1}],
    }
    offers = client.post("/api/v1/flights/search", body, format="json").json()["offers"]
    offers = [o for o in offers if not o["payment_requirements"]["requires_instant_payment"]]
    assert len(offers) >= count
    return offers[:count]


def passenger(pid: str, **overrides) -> dict:
    return {
        "id": pid,
        "given_name": "Ana",
        "family_name": "Souza",
        "gender": "f",
        "born_on": "1990-05-01",
        "email": "ana@example.com",
        "phone_number": "+5511987654321",
        **overrides,
    }


DOCUMENT = {
    "type": "tax_id",
    "unique_identifier": "39053344705",  # a CPF with valid check digits (a BR tax_id must be)
    "issuing_country_code": "BR",
    "expires_on": "2031-01-01",
}


# (what, where its limit is in the schema, the booking body with n of it, where the problem
# is named, the problem at n + 1)
LIMITS = [
    (
        "metadata keys",
        ("BookingCreateInputRequest", "metadata", "maxProperties"),
        lambda pid, n: {"metadata": {f"key{i}": "v" for i in range(n)}},
        "metadata",
        "At most {n} keys.",
    ),
    (
        "a metadata value's length",
        ("BookingCreateInputRequest", "metadata", "additionalProperties", "maxLength"),
        lambda pid, n: {"metadata": {"note": "v" * n}},
        "metadata.note",
        "A string of at most {n} characters.",
    ),
    (
        "a given name's length",
        ("PassengerInputRequest", "given_name", "maxLength"),
        lambda pid, n: {"passengers": [passenger(pid, given_name="A" * n)]},
        "passengers[0].given_name",
        "At most {n} characters.",
    ),
    (
        "documents per passenger",
        ("PassengerInputRequest", "identity_documents", "maxItems"),
        lambda pid, n: {"passengers": [passenger(pid, identity_documents=[DOCUMENT] * n)]},
        "passengers[0].identity_documents",
        "A list of at most {n}.",
    ),
]


@pytest.mark.parametrize(
    "where, build, field, problem",
    [limit[1:] for limit in LIMITS],
    ids=[limit[0] for limit in LIMITS],
)
def test_a_request_at_the_schemas_limit_passes_and_one_past_it_is_refused(
    schema, live_client, team, where, build, field, problem
):
    fund(team, "1000.00")
    component, *path = where
    limit = properties(schema, component)
    for key in path:
        limit = limit[key]
    assert isinstance(limit, int) and limit > 0
    at_limit, past_it = holdable_offers(live_client, 2)

    def book(offer, n):
        pid = offer["passengers"][0]["id"]
        body = {"offerId": offer["id"], "type": "hold", "passengers": [passenger(pid)]}
        return live_client.post("/api/v1/bookings", {**body, **build(pid, n)}, format="json")

    response = book(past_it, limit + 1)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    code = "invalid_passenger_data" if field.startswith("passengers") else "invalid_request"
    assert (error["code"], error["details"]) == (code, {field: [problem.format(n=limit)]})
    response = book(at_limit, limit)
    assert response.status_code == 201, response.content


def test_searches_at_the_schemas_limits_pass_and_past_them_are_refused(schema, live_client):
    most = properties(schema, "SearchPassengerInputRequest")["count"]["maximum"]
    most_slices = properties(schema, "SearchInputRequest")["slices"]["maxItems"]
    places = ["GRU", "BSB", "SSA", "REC", "FOR", "POA", "CWB", "GRU"]

    def search(adults: int, slices: int):
        body = {
            "type": "multi_city",
            "slices": [
                {"origin": a, "destination": b, "departureDate": f"2027-01-{10 + i:02d}"}
                for i, (a, b) in enumerate(itertools.pairwise(places))
            ][:slices],
            "passengers": [{"type": "adult", "count": adults}],
        }
        return live_client.post("/api/v1/flights/search", body, format="json")

    assert search(most, most_slices).status_code == 200
    response = search(most + 1, most_slices)
    assert response.json()["error"]["details"] == {
        "passengers": [f"At most {most} adults and children."]
    }
    response = search(most, most_slices + 1)
    assert response.json()["error"]["details"] == {
        "slices": [f"A multi_city search needs 2 to {most_slices} slices."]
    }
