"""Money helpers: Decimal only, quantized to cents with ROUND_HALF_UP (DESIGN.md "Money")."""

import re
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
# ASCII digits only (`\d` also matches "٣٠٠"), the whole string (`$` allows a trailing newline).
AMOUNT_PATTERN = re.compile(r"[0-9]{1,12}(\.[0-9]{1,2})?")


def q(value: Decimal) -> Decimal:
    """Quantize to cents, half up."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def is_whole_cents(value: Decimal) -> bool:
    """True when the amount has no part smaller than a centavo (12.30 yes, 12.305 no)."""
    return value == value.quantize(CENT)


def parse_amount(text: object) -> Decimal | None:
    """A non-negative decimal string with at most two fractional digits, or None."""
    if not isinstance(text, str) or not AMOUNT_PATTERN.fullmatch(text):
        return None
    return q(Decimal(text))


def fmt(value: Decimal) -> str:
    """The wire format of an amount: a string with exactly two fractional digits."""
    return f"{Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP):.2f}"  # q(), inlined: hot


# --- What people read and type (the panel, e-mails, payment pages) ---------------------------

CURRENCY_SYMBOLS = {"BRL": "R$", "USD": "US$", "EUR": "€", "GBP": "£"}


def money_display(value: Decimal | None, currency: str = "BRL", *, negative: bool = False) -> str:
    """An amount for people in the active language: `R$ 1.234,56` in Portuguese, `R$ 1,234.56`
    in English; `-R$ 12,00` for a debit (`negative`, or a negative value). Empty for None."""
    if value is None:
        return ""
    from django.utils.formats import number_format

    amount = q(value)
    if negative and amount > 0:
        amount = -amount
    symbol = CURRENCY_SYMBOLS.get(currency, currency)
    text = number_format(abs(amount), decimal_pos=2, use_l10n=True, force_grouping=True)
    return f"{'-' if amount < 0 else ''}{symbol}\N{NO-BREAK SPACE}{text}"


class LocalizedNumberError(ValueError):
    """A number a person typed that cannot be read without guessing; the message says why."""


def _separators(language: str) -> tuple[str, str]:
    """(decimal, thousands) separators people type in `language`."""
    return (".", ",") if language.lower().startswith("en") else (",", ".")


def parse_localized_decimal(text: str, *, language: str, decimal_places: int = 2) -> Decimal:
    """Read a non-negative number typed in `language`, strictly (docs/decisions.md "Panel").

    Portuguese: `25,50`, `1234,56`, `1.234,56`, `8,5`, `25`. English: `25.50`, `1,234.56`.
    A thousands separator is accepted only in whole groups of three AND together with the
    decimal separator, so `1.234` (a thousand, or one point two?) and `25.50` in Portuguese are
    errors, never guesses. More fractional digits than the field keeps is an error too: the
    panel never rounds what someone typed.
    """
    decimal_sep, thousands_sep = _separators(language)
    cleaned = text.strip().replace("\N{NO-BREAK SPACE}", " ")
    for decoration in ("R$", "%"):
        cleaned = cleaned.replace(decoration, "")
    cleaned = cleaned.strip()
    if not cleaned:
        raise LocalizedNumberError("empty")
    if not re.fullmatch(r"[0-9.,]+", cleaned):
        raise LocalizedNumberError("invalid")
    whole, _, fraction = cleaned.partition(decimal_sep)
    if decimal_sep in fraction or thousands_sep in fraction:
        raise LocalizedNumberError("invalid")
    if thousands_sep in whole:
        grouped = re.fullmatch(rf"\d{{1,3}}(?:{re.escape(thousands_sep)}\d{{3}})+", whole)
        if not grouped:
            # `25.50` in Portuguese, `25,50` in English: the other language's decimal mark.
            if decimal_sep not in cleaned and re.fullmatch(
                rf"\d+{re.escape(thousands_sep)}\d{{1,2}}", whole
            ):
                raise LocalizedNumberError("wrong_decimal_separator")
            raise LocalizedNumberError("invalid")
        if decimal_sep not in cleaned:
            raise LocalizedNumberError("ambiguous")
        whole = whole.replace(thousands_sep, "")
    if not whole.isdigit() or (decimal_sep in cleaned and not fraction.isdigit()):
        raise LocalizedNumberError("invalid")
    if len(fraction) > decimal_places:
        raise LocalizedNumberError("too_many_decimals")
    return Decimal(f"{whole}.{fraction or '0'}").quantize(Decimal(1).scaleb(-decimal_places))


def format_localized_decimal(value: Decimal | None, *, language: str, decimal_places: int = 2):
    """A number as a person would type it back in `language` (no thousands separator)."""
    if value is None:
        return ""
    decimal_sep, _ = _separators(language)
    text = f"{Decimal(value).quantize(Decimal(1).scaleb(-decimal_places)):f}"
    return text.replace(".", decimal_sep)
