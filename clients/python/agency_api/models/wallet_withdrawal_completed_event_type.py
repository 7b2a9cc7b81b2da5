from enum import StrEnum

class WalletWithdrawalCompletedEventType(StrEnum):
    WALLET_WITHDRAWAL_COMPLETED = "wallet.withdrawal.completed"

    def __str__(self) -> str:
        return str(self.value)
