"""Agency pricing, exactly as DESIGN.md "Money" says: every component quantized to the cent,
half up, and client_amount the exact sum of its parts.

The exchange rate an offer is priced at is the reference rate (PTAX, or the static table) plus
the cost of foreign exchange, the FX margin (bank spread, IOF): the team's own
`fx_margin_percent`, or the `FX_MARGIN_PERCENT` setting when the team has none. For a fare in
another currency than BRL

    exchange_rate_used = reference × (1 + margin / 100)   (8 decimals, half up; the reference
                                                           itself when the margin is 0)

and a BRL fare is priced at 1 with a margin of 0.00. The margin is applied once, where a rate is
quoted for a new price (`fx_quote`); a rate already used (an offer's or a booking's, locked in
it) is passed on as it is and never has the margin added again (docs/decisions.md "Exchange
rates")."""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings

from core.money import q

FX_MARGIN_MAX_PERCENT = Decimal("20.00")  # config/settings/base.py checks the setting against it
RATE_PLACES = Decimal("0.00000001")  # a booking keeps its rate with 8 decimals
ZERO_MARGIN = Decimal("0.00")


@dataclass(frozen=True)
class FxQuote:
    """A rate quoted now for a price: the reference (BRL per unit), the margin added to it (a
    percentage, 2 decimals) and the rate used."""

    reference_rate: Decimal
    margin_percent: Decimal
    rate: Decimal


def fx_quote(*, currency: str, reference_rate: Decimal, margin_percent: Decimal) -> FxQuote:
    if reference_rate <= 0 or not ZERO_MARGIN <= margin_percent <= FX_MARGIN_MAX_PERCENT:
        raise ValueError("the reference rate must be positive and the margin within 0 to 20")
    if currency == "BRL":
        return FxQuote(reference_rate=Decimal("1"), margin_percent=ZERO_MARGIN, rate=Decimal("1"))
    margin = q(margin_percent)
    if margin == 0:
        return FxQuote(reference_rate=reference_rate, margin_percent=margin, rate=reference_rate)
    rate = (reference_rate * (1 + margin / 100)).quantize(RATE_PLACES, rounding=ROUND_HALF_UP)
    return FxQuote(reference_rate=reference_rate, margin_percent=margin, rate=rate)


def team_fx_margin_percent(team) -> Decimal:
    """The team's FX margin: its own, or the setting's when it has none (null)."""
    own = team.fx_margin_percent
    return q(own if own is not None else settings.FX_MARGIN_PERCENT)


@dataclass(frozen=True)
class Price:
    total_amount: Decimal  # airline currency
    total_currency: str
    exchange_rate: Decimal  # BRL per unit of total_currency, locked into the offer
    base_cost_brl: Decimal
    markup_percent: Decimal
    markup_amount: Decimal
    fee_amount: Decimal
    client_amount: Decimal
    # How `exchange_rate` was quoted (priced with `fx`); None when priced at a rate already used.
    fx: FxQuote | None = None

    @property
    def total_agency_commission(self) -> Decimal:
        return self.markup_amount + self.fee_amount


def price_offer(
    *,
    total_amount: Decimal,
    total_currency: str,
    exchange_rate: Decimal | None = None,
    fx: FxQuote | None = None,
    markup_percent: Decimal,
    fee: Decimal,
) -> Price:
    """Price at `fx` (a rate quoted now: its `rate`, margin included) or at `exchange_rate` (a
    rate already used, margin included or not, as it is): one of the two."""
    if (exchange_rate is None) == (fx is None):
        raise ValueError("price at exchange_rate or at fx, one of the two")
    rate = fx.rate if fx is not None else exchange_rate
    assert rate is not None
    if total_amount < 0 or rate <= 0 or markup_percent < 0 or fee < 0:
        raise ValueError("amounts, rate, markup and fee must not be negative")
    base_cost_brl = q(total_amount * rate)
    markup_amount = q(base_cost_brl * markup_percent / 100)
    fee_amount = q(fee)
    return Price(
        total_amount=total_amount,
        total_currency=total_currency,
        exchange_rate=rate,
        base_cost_brl=base_cost_brl,
        markup_percent=markup_percent,
        markup_amount=markup_amount,
        fee_amount=fee_amount,
        client_amount=base_cost_brl + markup_amount + fee_amount,
        fx=fx,
    )
