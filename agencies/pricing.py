"""Agency pricing, exactly as DESIGN.md "Money" says: every component quantized to the cent,
half up, and client_amount the exact sum of its parts."""

from dataclasses import dataclass
from decimal import Decimal

from core.money import q


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

    @property
    def total_agency_commission(self) -> Decimal:
        return self.markup_amount + self.fee_amount


def price_offer(
    *,
    total_amount: Decimal,
    total_currency: str,
    exchange_rate: Decimal,
    markup_percent: Decimal,
    fee: Decimal,
) -> Price:
    if total_amount < 0 or exchange_rate <= 0 or markup_percent < 0 or fee < 0:
        raise ValueError("amounts, rate, markup and fee must not be negative")
    base_cost_brl = q(total_amount * exchange_rate)
    markup_amount = q(base_cost_brl * markup_percent / 100)
    fee_amount = q(fee)
    return Price(
        total_amount=total_amount,
        total_currency=total_currency,
        exchange_rate=exchange_rate,
        base_cost_brl=base_cost_brl,
        markup_percent=markup_percent,
        markup_amount=markup_amount,
        fee_amount=fee_amount,
        client_amount=base_cost_brl + markup_amount + fee_amount,
    )
