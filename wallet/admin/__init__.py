"""The wallet's pages in the panel, one module per subject: the ledger (wallets, movements) and
its statement, the recharges with their payment notifications, and their reversals."""

from wallet.admin import ledger, recharges, reversals

__all__ = ["ledger", "recharges", "reversals"]  # imported to register their admins
