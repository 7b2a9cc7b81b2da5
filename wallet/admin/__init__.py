"""The wallet's pages in the panel, one module per subject: the ledger (wallets, movements) and
its statement, and the recharges with their payment notifications."""

from wallet.admin import ledger, recharges

__all__ = ["ledger", "recharges"]  # imported to register their admins
