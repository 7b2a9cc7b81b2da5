from enum import StrEnum

class WalletTransactionsType(StrEnum):
    CREDIT = "credit"
    DEBIT = "debit"

    def __str__(self) -> str:
        return str(self.value)
