from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class AgenciesConfig(AppConfig):
    name = "agencies"
    verbose_name = _("Agencies")
    # The panel actions of agencies/admin.py, as their audit entries read (core/audit.py).
    audit_actions = {
        "api_key_revoke": _("Revoked API key"),
        "integration_disconnect": _("Disconnected integration"),
        "pricing_change": _("Changed pricing"),
    }

    def connect_signals(self):
        from agencies.permissions import sync_agency_group

        post_migrate.connect(sync_agency_group, dispatch_uid="agencies.sync_agency_group")
        # The per-process cache of API keys and teams is told of their changes by the api app
        # (api/apps.py), which builds on agencies.

    def ready(self):
        self.connect_signals()
