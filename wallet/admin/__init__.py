"""The wallet's pages in the panel, one module per subject: the ledger (wallets, movements) and
its statement, the recharges with their payment notifications and their reversals, and the
withdrawals with the team's payout key."""

from wallet.admin import ledger, recharges, reversals, withdrawals

__all__ = ["ledger", "recharges", "reversals", "withdrawals"]  # imported to register their admins
