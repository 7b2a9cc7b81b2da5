from enum import StrEnum

class WalletLowBalanceEventType(StrEnum):
    WALLET_LOW_BALANCE = "wallet.low_balance"

    def __str__(self) -> str:
        return str(self.value)
