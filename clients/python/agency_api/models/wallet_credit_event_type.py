from enum import StrEnum

class WalletCreditEventType(StrEnum):
    WALLET_CREDIT = "wallet.credit"

    def __str__(self) -> str:
        return str(self.value)
