from enum import StrEnum

class WalletWithdrawalFailedEventType(StrEnum):
    WALLET_WITHDRAWAL_FAILED = "wallet.withdrawal.failed"

    def __str__(self) -> str:
        return str(self.value)
