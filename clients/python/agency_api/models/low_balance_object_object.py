from enum import StrEnum

class LowBalanceObjectObject(StrEnum):
    BALANCE = "balance"

    def __str__(self) -> str:
        return str(self.value)
