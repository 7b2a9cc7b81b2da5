from enum import StrEnum

class WalletWithdrawalCreatedEventType(StrEnum):
    WALLET_WITHDRAWAL_CREATED = "wallet.withdrawal.created"

    def __str__(self) -> str:
        return str(self.value)
