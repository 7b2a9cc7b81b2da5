from enum import StrEnum

class WalletDebitEventType(StrEnum):
    WALLET_DEBIT = "wallet.debit"

    def __str__(self) -> str:
        return str(self.value)
