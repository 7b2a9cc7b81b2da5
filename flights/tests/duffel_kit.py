"""What the Duffel end-to-end tests share: the fake Duffel with the team connected to it for
live mode (the `duffel` fixture), and the API bodies they send."""

from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from flights.tests.fake_duffel import FakeDuffel

TOKEN = "duffel_test_e2e_0123456789"
CENTS = Decimal("0.01")


@pytest.fixture
def duffel(settings, team):
    """The fake Duffel, and the team connected to it for live mode."""
    assert settings.FLIGHTS_LIVE_SANDBOX is False
    with FakeDuffel(token=TOKEN) as fake:
        settings.DUFFEL_BASE_URL = fake.base_url
        out = StringIO()
        call_command("connect_supplier", team.id, "duffel", stdout=out, stdin=StringIO(TOKEN))
        assert out.getvalue().strip().startswith("itg_")
        yield fake


def departure(days: int) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).date().isoformat()


def search(client, passengers):
    body = {
        "type": "round_trip",
        "slices": [
            {"origin": "GRU", "destination": "LIS", "departureDate": departure(60)},
            {"origin": "LIS", "destination": "GRU", "departureDate": departure(74)},
        ],
        "passengers": passengers,
    }
    response = client.post("/api/v1/flights/search", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def person(pid, *, given, born, gender="f", title="ms"):
    return {
        "id": pid,
        "given_name": given,
        "family_name": "Albuquerque",
        "gender": gender,
        "title": title,
        "born_on": born,
        "email": "marina.albuquerque@example.com",
        "phone_number": "+5511987654321",
        "identity_documents": [
            {
                "type": "passport",
                "unique_identifier": f"FZ48291{len(given)}",
                "issuing_country_code": "BR",
                "expires_on": "2034-05-20",
            }
        ],
    }


def payment(offer):
    return {
        "type": "balance",
        "amount": offer["total_amount"],
        "currency": offer["total_currency"],
    }


def brl(amount: Decimal) -> Decimal:
    return amount.quantize(CENTS, rounding=ROUND_HALF_UP)
