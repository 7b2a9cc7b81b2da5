from enum import StrEnum

class TransactionTypeEnum(StrEnum):
    CREDIT = "credit"
    DEBIT = "debit"

    def __str__(self) -> str:
        return str(self.value)
