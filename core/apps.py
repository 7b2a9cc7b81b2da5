from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Activity")  # the panel's heading of the audit entries


class LoginProtectionConfig(AxesAppConfig):
    """django-axes under a name support understands (its app has none of its own)."""

    verbose_name = _("Login protection")
