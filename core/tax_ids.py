"""Brazilian tax ids: a CPF (a person's, 11 digits) or a CNPJ (a company's, 14), checked with
python-stdnum (`stdnum.br.cpf`, `stdnum.br.cnpj`). Stored as their digits only, shown
formatted (`390.533.447-05`, `11.222.333/0001-81`). Numeric CNPJs only: the column holds digits
(docs/clients.md)."""

import re

from stdnum.br import cnpj, cpf

CPF_DIGITS = re.compile(r"[0-9]{11}")
CNPJ_DIGITS = re.compile(r"[0-9]{14}")
# What may stand between the digits of a typed tax id: spaces, dots, dashes and a slash.
SEPARATORS = re.compile(r"[\s./-]")


def cpf_compact(number: str) -> str | None:
    """A CPF's 11 digits (`123.456.789-09` reads as `12345678909`) when its check digits are
    valid; otherwise None."""
    digits = SEPARATORS.sub("", number)
    return digits if CPF_DIGITS.fullmatch(digits) and cpf.is_valid(digits) else None


def tax_id_compact(number: str) -> str | None:
    """The digits of a valid CPF or numeric CNPJ, with or without its punctuation; otherwise
    None (wrong length, a letter, wrong check digits)."""
    digits = SEPARATORS.sub("", number)
    if CPF_DIGITS.fullmatch(digits):
        return digits if cpf.is_valid(digits) else None
    if CNPJ_DIGITS.fullmatch(digits):
        return digits if cnpj.is_valid(digits) else None
    return None


def tax_id_type(digits: str) -> str | None:
    """`cpf` or `cnpj` for stored digits; None for none."""
    return {11: "cpf", 14: "cnpj"}.get(len(digits)) if digits else None


def tax_id_display(digits: str) -> str:
    """Stored digits as people write them: `390.533.447-05`, `11.222.333/0001-81`."""
    kind = tax_id_type(digits)
    if kind == "cpf":
        return cpf.format(digits)
    if kind == "cnpj":
        return cnpj.format(digits)
    return digits


def tax_id_masked(text: str) -> str:
    """A payer's document as PIX receipts show it (the Banco Central's convention, Asaas's
    too): a CPF with its first three and last two digits hidden (`***.533.447-**`), a CNPJ,
    which is public, in full (`11.222.333/0001-81`). One already masked is shown as it came;
    anything else as given."""
    if "*" in text:
        return text
    digits = SEPARATORS.sub("", text)
    if CPF_DIGITS.fullmatch(digits):
        return f"***.{digits[3:6]}.{digits[6:9]}-**"
    if CNPJ_DIGITS.fullmatch(digits):
        return cnpj.format(digits)
    return text
