"""The search's response and stored offers, byte for byte, against golden files captured before
the search was made faster (docs/performance.md, "The flight search"): any change to a field, a
key's order, a number's or a string's encoding, or to what a booking later reads, fails here.

The sandbox supplier is deterministic for a given request and time; the ids' random bits come
from the OS, so the tests give `core.ids` a seeded byte stream instead (the ids keep their
form; only their randomness is replaced). Regenerate the files only when the contract changes
on purpose: `SEARCH_GOLDEN_UPDATE=1 pytest flights/tests/test_search_golden.py`.
"""

import gzip
import hashlib
import os
import types
from decimal import Decimal
from pathlib import Path

import orjson
import pytest
import time_machine

from core import ids
from flights import payloads
from flights.models import OfferRequest
from flights.selectors import bookable_offer
from tests.kit.clock import NOW
from tests.kit.factories import make_team

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_sandbox")]

GOLDEN = Path(__file__).parent / "golden"

SEARCHES = {
    "one_way_adult": {
        "type": "one_way",
        "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": "2027-01-15"}],
        "passengers": [{"type": "adult", "count": 1}],
    },
    "round_trip_city_family": {
        "type": "round_trip",
        "slices": [
            {"origin": "SAO", "destination": "LIS", "departureDate": "2027-03-10"},
            {"origin": "LIS", "destination": "SAO", "departureDate": "2027-03-24"},
        ],
        "passengers": [
            {"type": "adult", "count": 2},
            {"type": "child", "count": 1},
            {"type": "infant_without_seat", "count": 1},
        ],
    },
    "round_trip_business_domestic": {
        "type": "round_trip",
        "slices": [
            {"origin": "GRU", "destination": "REC", "departureDate": "2027-02-01"},
            {"origin": "REC", "destination": "GRU", "departureDate": "2027-02-05"},
        ],
        "passengers": [{"type": "adult", "count": 1}, {"type": "child", "count": 1}],
        "cabinClass": "business",
    },
    "multi_city_usd": {
        "type": "multi_city",
        "slices": [
            {"origin": "GRU", "destination": "JFK", "departureDate": "2027-04-02"},
            {"origin": "JFK", "destination": "MIA", "departureDate": "2027-04-09"},
            {"origin": "MIA", "destination": "GRU", "departureDate": "2027-04-16"},
        ],
        "passengers": [{"type": "adult", "count": 3}],
    },
}
CASES = [(name, mode) for name in SEARCHES for mode in ("test", "live")]


class SeededBytes:
    """A deterministic stand-in for os.urandom: SHA-256 of a counter."""

    def __init__(self, seed: str):
        self.seed, self.counter = seed, 0

    def __call__(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            self.counter += 1
            out += hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        return out[:size]


@pytest.fixture
def seeded_ids(monkeypatch):
    def seed(name: str) -> None:
        monkeypatch.setattr(ids, "os", types.SimpleNamespace(urandom=SeededBytes(name)))

    return seed


def stored(search_id: str) -> bytes:
    row = OfferRequest.objects.get(pk=search_id)
    return orjson.dumps(
        {
            "id": row.id,
            "live_mode": row.live_mode,
            "supplier": row.supplier,
            "created_at": row.created_at.isoformat(),
            "expires_at": row.expires_at.isoformat(),
            "passengers": row.passengers,
            "offers": row.offers,
        },
        option=orjson.OPT_INDENT_2,
    )


def booked_view(team, live_mode: bool, offer_ids: list[str]) -> bytes:
    """What a booking reads of some offers (rendered again from the stored form)."""
    views = []
    for offer_id in offer_ids:
        offer = bookable_offer(team=team, live_mode=live_mode, offer_id=offer_id)
        assert offer is not None
        views.append(
            {
                "id": offer.id,
                "client_amount": str(offer.client_amount),
                "markup_amount": str(offer.markup_amount),
                "fee_amount": str(offer.fee_amount),
                "base_cost_brl": str(offer.base_cost_brl),
                "exchange_rate": str(offer.exchange_rate),
                "data": offer.data,
            }
        )
    return orjson.dumps(views, option=orjson.OPT_INDENT_2)


def check(path: Path, actual: bytes) -> None:
    """`path` holds the expected bytes gzipped (4 MB of JSON; byte-identical when unpacked)."""
    if os.environ.get("SEARCH_GOLDEN_UPDATE") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(gzip.compress(actual, compresslevel=9, mtime=0))
    assert path.exists(), f"{path.name} missing: run with SEARCH_GOLDEN_UPDATE=1 once"
    expected = gzip.decompress(path.read_bytes())
    assert actual == expected, f"{path.name} differs from the golden file"


@pytest.mark.parametrize("name, mode", CASES)
def test_search_response_and_stored_offers_are_unchanged(name, mode, seeded_ids):
    from rest_framework.test import APIClient

    with time_machine.travel(NOW, tick=False):
        seeded_ids(f"team:{name}:{mode}")
        team = make_team(
            f"Golden {name} {mode}", markup_percent=Decimal("7.5"), fee=Decimal("12.34")
        )
        client = APIClient()
        key = team.test_key if mode == "test" else team.live_key
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")

        seeded_ids(f"search:{name}:{mode}")
        response = client.post("/api/v1/flights/search", SEARCHES[name], format="json")
        assert response.status_code == 200, response.content
        assert len(response.json()["offers"]) >= 10

        check(GOLDEN / f"{name}.{mode}.response.json.gz", response.content)
        search_id = response.json()["id"]
        check(GOLDEN / f"{name}.{mode}.stored.json.gz", stored(search_id))
        offers = response.json()["offers"]
        picked = [offers[0]["id"], offers[len(offers) // 2]["id"], offers[-1]["id"]]
        booked = booked_view(team.team, mode == "live", picked)
        check(GOLDEN / f"{name}.{mode}.booked.json.gz", booked)


def test_derived_ids_are_those_sibling_id_encodes():
    """The slices' and segments' ids of every offer ever stored are derived again when it is
    booked: the fast encoding must give exactly what `sibling_id` gave from the same bits."""
    for n in range(200):
        offer_id = ids.new_id("off")
        count = 1 + n % 9
        stream = hashlib.shake_128(offer_id.encode()).digest(10 * count)
        expected = [
            ids.sibling_id("seg", of=offer_id, random_bits=int.from_bytes(stream[i : i + 10]))
            for i in range(0, 10 * count, 10)
        ]
        time_part = ids.id_time_part(offer_id)
        parts = payloads.derived_random_parts(offer_id, count)
        assert [f"seg_{time_part}{part}" for part in parts] == expected
