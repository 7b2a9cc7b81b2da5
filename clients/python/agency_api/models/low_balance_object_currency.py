from enum import StrEnum

class LowBalanceObjectCurrency(StrEnum):
    BRL = "BRL"

    def __str__(self) -> str:
        return str(self.value)
