from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class AgenciesConfig(AppConfig):
    name = "agencies"
    verbose_name = _("Agencies")
    # The panel actions of agencies/admin.py, as their audit entries read (core/audit.py).
    audit_actions = {
        "api_key_revoke": _("Revoked API key"),
        "integration_disconnect": _("Disconnected integration"),
        "pricing_change": _("Changed pricing"),
        "api_version_upgrade": _("Upgraded API version"),
        "member_role_change": _("Changed role"),
        "member_deactivate": _("Deactivated member"),
        "member_reactivate": _("Reactivated member"),
    }

    def connect_signals(self):
        from agencies.key_cache import keys_changed
        from agencies.permissions import sync_agency_group

        post_migrate.connect(sync_agency_group, dispatch_uid="agencies.sync_agency_group")
        # Requests keep resolved keys and their teams per process (agencies/key_cache.py): any
        # change to either (a revocation, a new markup or fee) must reach every process.
        for model in ("ApiKey", "Team"):
            for signal in (post_save, post_delete):
                signal.connect(
                    keys_changed,
                    sender=f"agencies.{model}",
                    dispatch_uid=f"agencies.{model}.{signal is post_save}.keys_changed",
                )

    def ready(self):
        self.connect_signals()
