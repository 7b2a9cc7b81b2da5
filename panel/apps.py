from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PanelConfig(AppConfig):
    """The panel's kit: the site's rules of entry, the admin mixins and display helpers, the
    panel's forms and template filters. Builds on core only; each app's pages are its own
    `admin.py`, the cross-app pages the dashboard's."""

    default = True  # the app's config (this module also holds django-axes' one, below)
    name = "panel"
    # The panel actions of panel/admin.py, as their audit entries read (core/audit.py).
    audit_actions = {
        "periodic_task_disable": _("Disabled periodic task"),
        "periodic_task_enable": _("Enabled periodic task"),
    }

    def ready(self):
        from panel import lockout  # noqa: F401  # its receiver clears a user's own failures


class LoginProtectionConfig(AxesAppConfig):
    """django-axes under a name support understands (its app has none of its own)."""

    verbose_name = _("Login protection")
