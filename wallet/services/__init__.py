from wallet.services.ledger import (
    DuplicateTransaction,
    InsufficientBalance,
    transaction_object,
    wallet_create,
    wallet_credit,
    wallet_debit,
)
from wallet.services.notifications import notification_receive, notification_verdict
from wallet.services.recharges import (
    DailyLimitExceeded,
    RechargeNotFound,
    recharge_cancel,
    recharge_complete,
    recharge_create,
    recharge_expire,
    recharge_fail,
    recharge_object,
)

__all__ = [
    "DailyLimitExceeded",
    "DuplicateTransaction",
    "InsufficientBalance",
    "RechargeNotFound",
    "notification_receive",
    "notification_verdict",
    "recharge_cancel",
    "recharge_complete",
    "recharge_create",
    "recharge_expire",
    "recharge_fail",
    "recharge_object",
    "transaction_object",
    "wallet_create",
    "wallet_credit",
    "wallet_debit",
]
