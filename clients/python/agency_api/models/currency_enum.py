from enum import StrEnum

class CurrencyEnum(StrEnum):
    BRL = "BRL"

    def __str__(self) -> str:
        return str(self.value)
