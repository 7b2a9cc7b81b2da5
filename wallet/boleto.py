"""Boleto bancário: barcode, linha digitável, business-day due dates and the PDF.

The 44-digit barcode is what a scanner reads; the 47-digit linha digitável is the same data
rearranged into fields with their own check digits, for a person to type. Layout (FEBRABAN):

    barcode: bank(3) currency(1) general DV(1) due-date factor(4) amount in cents(10) free(25)
    linha:   bank+currency+free[0:5]+DV . free[5:15]+DV . free[15:25]+DV . DV . factor+amount

These are pure functions: no models, no settings, no network.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import holidays

from core.money import is_whole_cents, money_display

FACTOR_BASE_DATE = date(1997, 10, 7)
# The factor is four digits: it ran from 1000 (2000-07-03) to 9999 (2025-02-21) and restarted
# at 1000 on 2025-02-22, so it repeats every 9000 days.
FACTOR_MIN = 1000
FACTOR_CYCLE_DAYS = 9000
FIRST_FACTOR_DATE = FACTOR_BASE_DATE + timedelta(days=FACTOR_MIN)
MAX_CENTS = 10**10 - 1  # the amount field is ten digits of centavos
_DIGITS = re.compile(r"\d+")


def due_date_factor(due: date) -> int:
    """The four-digit due-date factor: days since 1997-10-07, restarting at 1000 every 9000.

    Dates before 2000-07-03 (factor 1000 of the first cycle) had factors below 1000 that the
    current rule cannot represent, so they are rejected rather than silently wrapped.
    """
    days = (due - FACTOR_BASE_DATE).days
    if days < FACTOR_MIN:
        raise ValueError(f"due date must be on or after {FIRST_FACTOR_DATE.isoformat()}")
    return FACTOR_MIN + (days - FACTOR_MIN) % FACTOR_CYCLE_DAYS


def barcode(
    *,
    bank_code: str,
    amount: Decimal,
    due: date,
    free_field: str,
    currency_code: str = "9",
) -> str:
    """The 44-digit barcode, with the mod-11 general check digit at position 5."""
    _require_digits(bank_code, 3, "bank_code")
    _require_digits(currency_code, 1, "currency_code")
    _require_digits(free_field, 25, "free_field")
    factor = f"{due_date_factor(due):04d}"
    cents = f"{amount_in_cents(amount):010d}"
    without_dv = bank_code + currency_code + factor + cents + free_field
    return without_dv[:4] + str(general_check_digit(without_dv)) + without_dv[4:]


def amount_in_cents(amount: Decimal) -> int:
    """The amount as whole centavos; rejects floats, non-positive values and sub-cent parts."""
    if not isinstance(amount, Decimal):
        raise ValueError(f"amount must be a Decimal, not {type(amount).__name__}")
    if not amount.is_finite() or amount <= 0:
        raise ValueError("amount must be greater than zero")
    if amount * 100 > MAX_CENTS:
        raise ValueError("amount must be at most 99999999.99")
    if not is_whole_cents(amount):
        raise ValueError("amount must have at most 2 decimal places")
    return int(amount * 100)


def general_check_digit(digits43: str) -> int:
    """Mod 11 over the other 43 digits, weights 2..9 from the right; 0, 10 and 11 become 1."""
    _require_digits(digits43, 43, "barcode without its check digit")
    total = sum(int(d) * (2 + i % 8) for i, d in enumerate(reversed(digits43)))
    result = 11 - total % 11
    return 1 if result in (0, 10, 11) else result


def mod10_check_digit(digits: str) -> int:
    """Mod 10 of a linha field: weights 2, 1, 2, ... from the right, products' digits added."""
    total = 0
    for i, d in enumerate(reversed(digits)):
        product = int(d) * (2 if i % 2 == 0 else 1)
        total += product // 10 + product % 10
    return (10 - total % 10) % 10


def linha_digitavel(barcode: str) -> str:
    """The 47-digit typed line, formatted "AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEE…".

    Raises ValueError when `barcode` is not 44 digits with a valid general check digit, so that
    a corrupted barcode never reaches a customer as a payable line.
    """
    check_barcode(barcode)
    free = barcode[19:44]
    field1 = _with_mod10(barcode[0:4] + free[0:5])
    field2 = _with_mod10(free[5:15])
    field3 = _with_mod10(free[15:25])
    return " ".join(
        [
            f"{field1[:5]}.{field1[5:]}",
            f"{field2[:5]}.{field2[5:]}",
            f"{field3[:5]}.{field3[5:]}",
            barcode[4],
            barcode[5:19],
        ]
    )


def barcode_from_linha(linha: str) -> str:
    """The 44-digit barcode behind a linha digitável, after checking every check digit.

    Accepts the formatted line or its 47 bare digits (spaces and dots are ignored).
    """
    digits = linha.replace(" ", "").replace(".", "")
    _require_digits(digits, 47, "linha digitável")
    fields = (digits[0:10], digits[10:21], digits[21:32])
    for number, field in enumerate(fields, start=1):
        if mod10_check_digit(field[:-1]) != int(field[-1]):
            raise ValueError(f"linha digitável field {number} has a wrong check digit")
    free = fields[0][4:9] + fields[1][:10] + fields[2][:10]
    code = fields[0][:4] + digits[32] + digits[33:47] + free
    check_barcode(code)
    return code


def business_days_after(start: date, days: int) -> date:
    """The date `days` Brazilian business days after `start` (`start` itself not counted).

    Weekends and B3 (BVMF) exchange holidays are skipped: banks settle boletos on that calendar,
    which, unlike the national one, closes on Carnaval, Christmas Eve and 31 December.
    `days == 0` returns `start` unchanged.
    """
    if days < 0:
        raise ValueError("days must not be negative")
    calendar = business_calendar()
    current = start
    for _ in range(days):
        current = next_business_day(current, calendar)
    return current


def next_business_day(day: date, calendar: holidays.HolidayBase | None = None) -> date:
    """The first business day strictly after `day`."""
    calendar = calendar if calendar is not None else business_calendar()
    current = day + timedelta(days=1)
    while not is_business_day(current, calendar):
        current += timedelta(days=1)
    return current


def is_business_day(day: date, calendar: holidays.HolidayBase | None = None) -> bool:
    calendar = calendar if calendar is not None else business_calendar()
    return day.weekday() < 5 and day not in calendar


def business_calendar() -> holidays.HolidayBase:
    """A fresh holiday calendar: B3/BVMF when the installed `holidays` has it.

    Falls back to the national calendar (which lacks Carnaval) on versions before 0.61. A new
    object per call because holiday objects fill in years lazily and are not thread-safe.
    """
    try:
        return holidays.financial_holidays("BVMF")
    except NotImplementedError:
        return holidays.Brazil()


def format_brl(amount: Decimal) -> str:
    """Brazilian money formatting, whatever the reader's language: R$ 1.234,56."""
    from django.utils import translation

    with translation.override("pt-br"):  # a plain space: the PDF's fonts and the page's text
        return money_display(amount).replace("\N{NO-BREAK SPACE}", " ")


def _with_mod10(digits: str) -> str:
    return digits + str(mod10_check_digit(digits))


def check_barcode(code: str) -> None:
    _require_digits(code, 44, "barcode")
    if general_check_digit(code[:4] + code[5:]) != int(code[4]):
        raise ValueError("barcode has a wrong general check digit (position 5)")


def _require_digits(value: str, length: int, name: str) -> None:
    if not (isinstance(value, str) and len(value) == length and _DIGITS.fullmatch(value)):
        raise ValueError(f"{name} must be exactly {length} digits")
