from enum import StrEnum

class WalletReversalEventType(StrEnum):
    WALLET_REVERSAL = "wallet.reversal"

    def __str__(self) -> str:
        return str(self.value)
