"""Money helpers: Decimal only, quantized to cents with ROUND_HALF_UP (DESIGN.md "Money")."""

import re
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
AMOUNT_PATTERN = re.compile(r"^\d{1,12}(\.\d{1,2})?$")


def q(value: Decimal) -> Decimal:
    """Quantize to cents, half up."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def parse_amount(text: str) -> Decimal | None:
    """A non-negative decimal string with at most two fractional digits, or None."""
    if not isinstance(text, str) or not AMOUNT_PATTERN.match(text):
        return None
    return q(Decimal(text))


def fmt(value: Decimal) -> str:
    """The wire format of an amount: a string with exactly two fractional digits."""
    return f"{q(value):.2f}"
