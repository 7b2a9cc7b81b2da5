"""Brazilian addresses: the CEP (postal code, 8 digits, written `01310-100`) and the UF (the
two letters of one of the 26 states and the Federal District)."""

import re

BRAZILIAN_STATES = (
    "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
    "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
)  # fmt: skip
CEP = re.compile(r"([0-9]{5})-?([0-9]{3})")


def cep_compact(text: str) -> str | None:
    """A CEP's 8 digits (`01310-100` or `01310100`), or None when `text` is not one."""
    found = CEP.fullmatch(text.strip())
    return found[1] + found[2] if found else None


def state_compact(text: str) -> str | None:
    """A UF in capitals (`sp` → `SP`), or None when `text` is not one."""
    state = text.strip().upper()
    return state if state in BRAZILIAN_STATES else None
