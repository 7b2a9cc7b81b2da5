from enum import StrEnum

class WalletRechargeCompletedEventType(StrEnum):
    WALLET_RECHARGE_COMPLETED = "wallet.recharge.completed"

    def __str__(self) -> str:
        return str(self.value)
