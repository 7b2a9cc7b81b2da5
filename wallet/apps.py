from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = _("Wallet")
    # The panel actions of the wallet's admin, as their audit entries read (core/audit.py).
    audit_actions = {
        "recharge_mark_paid": _("Marked recharge paid"),
        "recharge_cancel": _("Cancelled recharge"),
        "payout_key_register": _("Registered payout PIX key"),
        "withdrawal_check_again": _("Checked withdrawal again with the provider"),
    }

    def ready(self):
        from wallet.receivers import team_wallet_open

        # Every team has its live wallet from the start (wallet/receivers.py).
        post_save.connect(
            team_wallet_open, sender="agencies.Team", dispatch_uid="wallet.team_wallet_open"
        )
