from enum import StrEnum

class WalletRechargeExpiredEventType(StrEnum):
    WALLET_RECHARGE_EXPIRED = "wallet.recharge.expired"

    def __str__(self) -> str:
        return str(self.value)
