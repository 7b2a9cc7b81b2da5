"""The schema's pattern for a recharge amount accepts exactly what the API does (docs/fuzzing.md):
at most 12 integer digits (leading zeros included) and 2 fractional ones, 100.00 to 50000.00."""

import re

import pytest

from wallet.apis import RECHARGE_AMOUNT_PATTERN

pytestmark = pytest.mark.django_db

AMOUNTS = [
    "100", "100.0", "100.00", "99.99", "0100.00", "000000000100", "0000000000100",
    "250.5", "250.555", "49999.99", "50000", "50000.00", "50000.01", "000000050000.00",
    "0000000050000", "1e3", "+250.00", "250.", ".50", "١٠٠.٠٠", "250.00\n",
]  # fmt: skip


@pytest.mark.parametrize("amount", AMOUNTS)
def test_pattern_and_api_agree(test_client, amount):
    body = {"amount": amount, "currency": "BRL", "payment_method": "pix"}
    response = test_client.post("/api/v1/wallet/recharge", body, format="json")
    assert response.status_code in (201, 400), response.content
    # As JSON Schema reads it (ECMA-262: `$` is the very end, not before a final newline).
    whole = RECHARGE_AMOUNT_PATTERN.removeprefix("^").removesuffix("$")
    assert (response.status_code == 201) == bool(re.fullmatch(whole, amount))
