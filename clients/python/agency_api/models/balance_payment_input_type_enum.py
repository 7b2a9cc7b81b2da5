from enum import StrEnum

class BalancePaymentInputTypeEnum(StrEnum):
    BALANCE = "balance"

    def __str__(self) -> str:
        return str(self.value)
