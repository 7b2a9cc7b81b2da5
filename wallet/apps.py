from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = _("Wallet")
    # The panel actions of the wallet's admin, as their audit entries read (core/audit.py).
    audit_actions = {
        "recharge_mark_paid": _("Marked recharge paid"),
        "recharge_cancel": _("Cancelled recharge"),
    }
