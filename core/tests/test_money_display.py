"""Money for people: one formatter in both languages, and the strict reading of typed numbers."""

from decimal import Decimal

import pytest
from django.utils import translation

from core.money import LocalizedNumberError, money_display, parse_localized_decimal

NBSP = "\N{NO-BREAK SPACE}"


@pytest.mark.parametrize(
    ("language", "value", "negative", "shown"),
    [
        ("pt-br", Decimal("1234.56"), False, f"R${NBSP}1.234,56"),
        ("pt-br", Decimal("1234567.5"), True, f"-R${NBSP}1.234.567,50"),
        ("pt-br", Decimal("0.005"), False, f"R${NBSP}0,01"),  # cents, half up
        ("en", Decimal("1234.56"), False, f"R${NBSP}1,234.56"),
        ("en", Decimal("12"), True, f"-R${NBSP}12.00"),
    ],
)
def test_money_display(language, value, negative, shown):
    with translation.override(language):
        assert money_display(value, negative=negative) == shown


@pytest.mark.parametrize(
    ("language", "text", "value"),
    [
        ("pt-br", "25,50", "25.50"),
        ("pt-br", "1.234,56", "1234.56"),
        ("pt-br", "1.234.567,8", "1234567.80"),
        ("pt-br", "8,5", "8.50"),
        ("pt-br", "25", "25.00"),
        ("pt-br", "0,5", "0.50"),
        ("en", "25.50", "25.50"),
        ("en", "1,234.56", "1234.56"),
    ],
)
def test_reads_numbers_as_people_write_them(language, text, value):
    assert parse_localized_decimal(text, language=language) == Decimal(value)


@pytest.mark.parametrize(
    ("language", "text", "reason"),
    [
        ("pt-br", "25.50", "wrong_decimal_separator"),
        ("pt-br", "1.234", "ambiguous"),
        ("pt-br", "1.234.567", "ambiguous"),
        ("pt-br", "12.34,5", "invalid"),
        ("pt-br", "1,2,3", "invalid"),
        ("pt-br", "25,505", "too_many_decimals"),
        ("pt-br", "-1", "invalid"),
        ("pt-br", "1e3", "invalid"),
        ("pt-br", ",", "invalid"),
        ("pt-br", "", "empty"),
        ("en", "25,50", "wrong_decimal_separator"),
        ("en", "1,234", "ambiguous"),
    ],
)
def test_refuses_what_it_would_have_to_guess(language, text, reason):
    with pytest.raises(LocalizedNumberError) as error:
        parse_localized_decimal(text, language=language)
    assert str(error.value) == reason
