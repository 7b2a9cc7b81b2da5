"""The cost of foreign exchange in the price (docs/decisions.md "Exchange rates"): a fare in
another currency than BRL is priced at the reference rate plus the FX margin (the team's own, or
FX_MARGIN_PERCENT), shown beside `exchange_rate_used` as `fx_reference_rate` and
`fx_margin_percent`; BRL fares at 1 with "0.00"; the price identity holds; a stored offer keeps
the rate it was shown with, and a change of margin applies to the next search."""

from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.core.exceptions import ImproperlyConfigured
from hypothesis import given, settings
from hypothesis import strategies as st

from agencies.pricing import fx_quote, price_offer, team_fx_margin_percent
from bookings.models import Booking
from bookings.tests.helpers import book, passport
from config.settings.base import fx_margin_percent
from flights import packing
from flights.models import OfferRequest
from flights.selectors import bookable_offer
from tests.kit.factories import fund
from tests.kit.passengers import passenger

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

CENT = Decimal("0.01")
EUR = Decimal("6.2000")  # FX_STATIC_RATES's, the reference in these tests (FX_PROVIDER=static)
GRU_LIS = {
    "type": "round_trip",
    "passengers": [{"type": "adult", "count": 1}],
    "slices": [
        {"origin": "GRU", "destination": "LIS", "departureDate": "2027-01-15"},
        {"origin": "LIS", "destination": "GRU", "departureDate": "2027-01-25"},
    ],
}


def q(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def search(client, body=None) -> dict:
    response = client.post("/api/v1/flights/search", body or GRU_LIS, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def by_currency(result: dict) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for offer in result["offers"]:
        found.setdefault(offer["total_currency"], []).append(offer)
    assert {"EUR", "BRL"} <= set(found), set(found)  # the sandbox's GRU–LIS sells both
    return found


def assert_priced(offer: dict, *, rate: Decimal, markup: Decimal, fee: Decimal) -> None:
    """The offer's amounts are its fare at `rate`, and client_amount their exact sum."""
    base = Decimal(offer["base_cost_brl"])
    assert Decimal(str(offer["exchange_rate_used"])) == rate
    assert base == q(Decimal(offer["total_amount"]) * rate)
    assert Decimal(offer["agency_markup_amount"]) == q(base * markup / 100)
    assert Decimal(offer["agency_fee_amount"]) == fee
    assert Decimal(offer["client_amount"]) == (
        base + Decimal(offer["agency_markup_amount"]) + Decimal(offer["agency_fee_amount"])
    )


def priced_team(team, *, margin: str | None = None):
    team.markup_percent, team.fee = Decimal("10.00"), Decimal("25.00")
    team.fx_margin_percent = None if margin is None else Decimal(margin)
    team.save()


# --- Offers ------------------------------------------------------------------------------------


def test_without_a_margin_offers_are_priced_at_the_reference_as_before(live_client, team):
    priced_team(team)
    offers = by_currency(search(live_client))
    for offer in offers["EUR"]:
        assert offer["exchange_rate_used"] == 6.2 and offer["fx_reference_rate"] == 6.2
        assert offer["fx_margin_percent"] == "0.00"
        assert_priced(offer, rate=EUR, markup=Decimal("10"), fee=Decimal("25.00"))
    for offer in offers["BRL"]:
        assert offer["exchange_rate_used"] == 1 and offer["fx_reference_rate"] == 1
        assert offer["fx_margin_percent"] == "0.00"


def test_the_setting_adds_its_margin_to_foreign_fares_only(live_client, team, settings):
    settings.FX_MARGIN_PERCENT = Decimal("2.50")
    priced_team(team)
    offers = by_currency(search(live_client))
    for offer in offers["EUR"]:
        # 6.2 × 1.025 = 6.355
        assert offer["exchange_rate_used"] == 6.355 and offer["fx_reference_rate"] == 6.2
        assert offer["fx_margin_percent"] == "2.50"
        assert_priced(offer, rate=Decimal("6.355"), markup=Decimal("10"), fee=Decimal("25.00"))
    for offer in offers["BRL"]:  # a BRL fare has no exchange to pay for
        assert offer["exchange_rate_used"] == 1 and offer["fx_reference_rate"] == 1
        assert offer["fx_margin_percent"] == "0.00"
        assert_priced(offer, rate=Decimal("1"), markup=Decimal("10"), fee=Decimal("25.00"))


@pytest.mark.parametrize(
    ("own", "shown", "rate"),
    [
        ("1.25", "1.25", Decimal("6.2775")),  # the team's own wins over the setting's 2.50
        ("0.00", "0.00", EUR),  # an explicit 0 is the team's too: no margin
        ("20.00", "20.00", Decimal("7.44")),  # the cap
    ],
)
def test_a_teams_own_margin_wins_over_the_setting(live_client, team, settings, own, shown, rate):
    settings.FX_MARGIN_PERCENT = Decimal("2.50")
    priced_team(team, margin=own)
    for offer in by_currency(search(live_client))["EUR"]:
        assert offer["fx_margin_percent"] == shown and offer["fx_reference_rate"] == 6.2
        assert_priced(offer, rate=rate, markup=Decimal("10"), fee=Decimal("25.00"))


def test_a_margin_change_applies_to_the_next_search_and_a_stored_offer_keeps_its_rate(
    live_client, team
):
    fund(team, "50000.00")
    priced_team(team, margin="2.00")
    first = search(live_client)
    shown = by_currency(first)["EUR"][0]
    assert shown["exchange_rate_used"] == 6.324 and shown["fx_margin_percent"] == "2.00"

    priced_team(team, margin="5.00")  # saved in the panel: the key cache forgets the team

    again = by_currency(search(live_client))["EUR"][0]
    assert again["exchange_rate_used"] == 6.51 and again["fx_margin_percent"] == "5.00"
    # The offer searched before is booked at the rate and price it was shown with.
    stored = bookable_offer(team=team, live_mode=True, offer_id=shown["id"])
    assert stored is not None
    assert (stored.exchange_rate, stored.fx_reference_rate, stored.fx_margin_percent) == (
        Decimal("6.324"),
        Decimal("6.2000"),
        Decimal("2.00"),
    )
    response = book(
        live_client,
        shown,
        type="instant",
        people=[passenger(shown["passengers"][0]["id"], identity_documents=passport("FX1234567"))],
    )
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.exchange_rate == Decimal("6.324")
    assert (booking.fx_reference_rate, booking.fx_margin_percent) == (EUR, Decimal("2.00"))
    assert booking.base_cost_brl == Decimal(shown["base_cost_brl"])
    assert booking.client_amount == Decimal(shown["client_amount"])


def test_the_stored_offer_keeps_the_reference_and_the_margin(live_client, team, settings):
    settings.FX_MARGIN_PERCENT = Decimal("3.00")
    result = search(live_client)
    row = OfferRequest.objects.get(pk=result["id"])
    for packed, shown in zip(row.offers, result["offers"], strict=True):
        reference, margin = packed[-2:]
        assert (Decimal(reference), margin) == (
            Decimal(str(shown["fx_reference_rate"])),
            shown["fx_margin_percent"],
        )
        assert Decimal(packed[7]) == Decimal(str(shown["exchange_rate_used"]))


def test_an_offer_packed_before_margins_reads_its_rate_as_the_reference(live_client, team):
    result = search(live_client)
    row = OfferRequest.objects.get(pk=result["id"])
    old = [packed[:20] for packed in row.offers]  # as packed before the FX values were kept
    stored = packing.unpack_offer(old[0], supplier_passenger_ids=("",))
    assert stored.fx_reference_rate == stored.exchange_rate
    assert stored.fx_margin_percent == Decimal("0.00")


def test_extras_are_priced_at_the_offers_rate_with_no_second_margin(live_client, team, settings):
    settings.FX_MARGIN_PERCENT = Decimal("2.50")
    priced_team(team)
    offer = by_currency(search(live_client))["EUR"][0]
    response = live_client.get(f"/api/v1/offers/{offer['id']}/available_services")
    assert response.status_code == 200, response.content
    services = response.json()["data"]
    assert services, "the sandbox sells bags on GRU–LIS"
    for service in services:
        assert service["total_currency"] == "EUR"
        base = q(Decimal(service["total_amount"]) * Decimal("6.355"))  # the offer's rate
        assert service["base_cost_brl"] == f"{base}"
        assert service["client_amount"] == f"{base + q(base * Decimal('0.10'))}"


# --- The rule ----------------------------------------------------------------------------------


def test_the_rate_is_the_reference_times_one_plus_the_margin_to_8_decimals():
    assert fx_quote(
        currency="USD", reference_rate=Decimal("5.3500"), margin_percent=Decimal("2.5")
    ).rate == Decimal("5.48375000")
    # 0.00071 × 1.0333 = 0.000733643 → 0.00073364 (8 decimals, half up: what a booking keeps)
    assert fx_quote(
        currency="PYG", reference_rate=Decimal("0.00071"), margin_percent=Decimal("3.33")
    ).rate == Decimal("0.00073364")
    same = fx_quote(currency="USD", reference_rate=Decimal("5.3500"), margin_percent=Decimal(0))
    assert same.rate == Decimal("5.3500") and same.margin_percent == Decimal("0.00")
    brl = fx_quote(currency="BRL", reference_rate=Decimal("1"), margin_percent=Decimal("4"))
    assert (brl.reference_rate, brl.margin_percent, brl.rate) == (1, Decimal("0.00"), 1)
    for wrong in (Decimal("-0.01"), Decimal("20.01")):
        with pytest.raises(ValueError):
            fx_quote(currency="USD", reference_rate=Decimal("5"), margin_percent=wrong)


def test_the_teams_margin_is_its_own_or_the_settings(team, settings):
    settings.FX_MARGIN_PERCENT = Decimal("1.50")
    assert team_fx_margin_percent(team) == Decimal("1.50")
    team.fx_margin_percent = Decimal("0")
    assert team_fx_margin_percent(team) == Decimal("0.00")


@pytest.mark.parametrize(
    ("text", "value"), [("0", "0.00"), ("2.5", "2.50"), (" 3.38 ", "3.38"), ("20", "20.00")]
)
def test_the_setting_is_read_strictly(text, value):
    assert fx_margin_percent(text) == Decimal(value)


@pytest.mark.parametrize("text", ["", "-1", "20.01", "2.555", "abc", "NaN", "Infinity", "2,5"])
def test_a_wrong_setting_stops_the_service(text):
    with pytest.raises(ImproperlyConfigured, match="FX_MARGIN_PERCENT"):
        fx_margin_percent(text)


@settings(max_examples=400, deadline=None)
@given(
    total=st.decimals(min_value=0, max_value=1_000_000, places=2),
    reference=st.decimals(min_value=Decimal("0.00001"), max_value=Decimal("50"), places=5),
    margin=st.decimals(min_value=0, max_value=20, places=2),
    markup=st.decimals(min_value=0, max_value=100, places=2),
    fee=st.decimals(min_value=0, max_value=10_000, places=2),
    currency=st.sampled_from(["USD", "EUR", "PYG", "BRL"]),
)
def test_the_price_identity_holds_with_any_margin(total, reference, margin, markup, fee, currency):
    if currency == "BRL":
        reference = Decimal("1")
    fx = fx_quote(currency=currency, reference_rate=reference, margin_percent=margin)
    price = price_offer(
        total_amount=total, total_currency=currency, fx=fx, markup_percent=markup, fee=fee
    )
    if currency == "BRL":
        assert (fx.rate, fx.margin_percent) == (1, Decimal("0.00"))
    else:
        exact = reference * (1 + margin / 100)
        assert fx.rate == exact.quantize(Decimal("0.00000001"), rounding=ROUND_HALF_UP)
        assert fx.margin_percent == margin and fx.reference_rate == reference
        assert fx.rate >= reference
    assert price.exchange_rate == fx.rate
    assert price.base_cost_brl == q(total * fx.rate)
    assert price.markup_amount == q(price.base_cost_brl * markup / 100)
    assert price.client_amount == price.base_cost_brl + price.markup_amount + price.fee_amount
    for part in (price.base_cost_brl, price.markup_amount, price.fee_amount, price.client_amount):
        assert part >= 0 and part == part.quantize(CENT)
