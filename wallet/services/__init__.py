from wallet.services.ledger import (
    DuplicateTransaction,
    InsufficientBalance,
    WalletRestricted,
    transaction_object,
    wallet_create,
    wallet_credit,
    wallet_debit,
)
from wallet.services.ledger_checks import last_clean_ledger_check, ledger_check_run
from wallet.services.notifications import (
    NotificationNotRejected,
    notification_receive,
    notification_verdict,
    notification_verify_again,
    transfer_notification_receive,
)
from wallet.services.payout_keys import payout_key_normalize, payout_key_register
from wallet.services.recharges import (
    DailyLimitExceeded,
    RechargeNotFound,
    recharge_cancel,
    recharge_complete,
    recharge_create,
    recharge_expire,
    recharge_fail,
    recharge_object,
    recharges_expire_due,
)
from wallet.services.reversals import (
    ReversalCheckRefused,
    recharge_reversals_check,
    recharge_reversals_reconcile,
)
from wallet.services.withdrawals import (
    WithdrawalNotFound,
    withdrawal_check,
    withdrawal_check_again,
    withdrawal_create,
    withdrawal_object,
    withdrawals_check_open,
)

__all__ = [
    "DailyLimitExceeded",
    "DuplicateTransaction",
    "InsufficientBalance",
    "NotificationNotRejected",
    "RechargeNotFound",
    "ReversalCheckRefused",
    "WalletRestricted",
    "WithdrawalNotFound",
    "last_clean_ledger_check",
    "ledger_check_run",
    "notification_receive",
    "notification_verdict",
    "notification_verify_again",
    "payout_key_normalize",
    "payout_key_register",
    "recharge_cancel",
    "recharge_complete",
    "recharge_create",
    "recharge_expire",
    "recharge_fail",
    "recharge_object",
    "recharge_reversals_check",
    "recharge_reversals_reconcile",
    "recharges_expire_due",
    "transaction_object",
    "transfer_notification_receive",
    "wallet_create",
    "wallet_credit",
    "wallet_debit",
    "withdrawal_check",
    "withdrawal_check_again",
    "withdrawal_create",
    "withdrawal_object",
    "withdrawals_check_open",
]
