from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = _("Wallet")

    def ready(self):
        from wallet.receivers import team_wallet_open

        # Every team has its live wallet from the start (wallet/receivers.py).
        post_save.connect(
            team_wallet_open, sender="agencies.Team", dispatch_uid="wallet.team_wallet_open"
        )
