from decimal import ROUND_HALF_UP, Decimal

import pytest
import requests
import responses
from django.core.cache import cache
from hypothesis import given, settings
from hypothesis import strategies as st

from agencies.pricing import price_offer
from flights.fx import PTAX_URL, PtaxRates, StaticRates, UnknownCurrency

CENT = Decimal("0.01")


def q(value):
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def test_pricing_example_from_design():
    price = price_offer(
        total_amount=Decimal("1153.85"),
        total_currency="EUR",
        exchange_rate=Decimal("6.2"),
        markup_percent=Decimal("10"),
        fee=Decimal("25"),
    )
    assert price.base_cost_brl == Decimal("7153.87")  # 7153.870 exactly
    assert price.markup_amount == Decimal("715.39")  # 715.387 → half up
    assert price.fee_amount == Decimal("25.00")
    assert price.client_amount == Decimal("7894.26")
    assert price.total_agency_commission == Decimal("740.39")


def test_half_up_at_the_half_cent():
    price = price_offer(
        total_amount=Decimal("0.01"),
        total_currency="USD",
        exchange_rate=Decimal("0.5"),
        markup_percent=Decimal("0"),
        fee=Decimal("0"),
    )
    assert price.base_cost_brl == Decimal("0.01")  # 0.005 rounds up, not to even


@settings(max_examples=400, deadline=None)
@given(
    total=st.decimals(min_value=0, max_value=1_000_000, places=2),
    rate=st.decimals(min_value=Decimal("0.00001"), max_value=Decimal("50"), places=5),
    markup=st.decimals(min_value=0, max_value=100, places=2),
    fee=st.decimals(min_value=0, max_value=10_000, places=2),
)
def test_client_amount_is_the_exact_sum_of_quantized_parts(total, rate, markup, fee):
    price = price_offer(
        total_amount=total, total_currency="USD", exchange_rate=rate, markup_percent=markup, fee=fee
    )
    assert price.base_cost_brl == q(total * rate)
    assert price.markup_amount == q(price.base_cost_brl * markup / 100)
    assert price.fee_amount == q(fee)
    assert price.client_amount == price.base_cost_brl + price.markup_amount + price.fee_amount
    for part in (price.base_cost_brl, price.markup_amount, price.fee_amount, price.client_amount):
        assert part >= 0 and part == part.quantize(CENT)
    assert price.total_agency_commission == price.markup_amount + price.fee_amount


def test_negative_inputs_are_refused():
    with pytest.raises(ValueError):
        price_offer(
            total_amount=Decimal("10"),
            total_currency="USD",
            exchange_rate=Decimal("5"),
            markup_percent=Decimal("-1"),
            fee=Decimal("0"),
        )


def test_static_rates_from_settings(settings):
    settings.FX_STATIC_RATES = {"USD": "5.1234"}
    rates = StaticRates()
    assert rates.rate("USD") == Decimal("5.1234") and rates.rate("BRL") == 1
    with pytest.raises(UnknownCurrency):
        rates.rate("JPY")


@pytest.fixture
def ptax():
    cache.clear()
    with responses.RequestsMock() as mocked:
        yield mocked
    cache.clear()


def test_ptax_uses_the_latest_bulletin_and_caches_it(ptax, settings):
    ptax.get(
        PTAX_URL,
        body='{"value": [{"cotacaoCompra": 5.3021, "cotacaoVenda": 5.3027, '
        '"tipoBoletim": "Abertura"}, {"cotacaoCompra": 5.3391, '
        '"cotacaoVenda": 5.3397, "tipoBoletim": "Fechamento PTAX"}]}',
    )
    rates = PtaxRates()
    assert rates.rate("USD") == Decimal("5.3397")  # exact, never through float
    assert rates.rate("USD") == Decimal("5.3397")
    assert len(ptax.calls) == 1  # cached
    assert "%40moeda=%27USD%27" in ptax.calls[0].request.url


def test_ptax_looks_back_over_days_without_bulletin(ptax):
    ptax.get(PTAX_URL, json={"value": []})
    ptax.get(PTAX_URL, json={"value": []})
    ptax.get(PTAX_URL, body='{"value": [{"cotacaoVenda": 6.1001}]}')
    assert PtaxRates().rate("EUR") == Decimal("6.1001")
    assert len(ptax.calls) == 3


def test_ptax_falls_back_to_static_rates_when_unreachable(ptax, settings):
    settings.FX_STATIC_RATES = {"USD": "5.0000", "ARS": "0.0050"}
    ptax.get(PTAX_URL, body=requests.ConnectionError("no route"))
    assert PtaxRates().rate("USD") == Decimal("5.0000")
    ptax.get(PTAX_URL, status=500)
    cache.clear()
    assert PtaxRates().rate("USD") == Decimal("5.0000")
    # Currencies PTAX does not quote come from the static table without a call.
    calls = len(ptax.calls)
    assert PtaxRates().rate("ARS") == Decimal("0.0050") and len(ptax.calls) == calls
