from enum import StrEnum

class WalletRechargePendingEventType(StrEnum):
    WALLET_RECHARGE_PENDING = "wallet.recharge.pending"

    def __str__(self) -> str:
        return str(self.value)
