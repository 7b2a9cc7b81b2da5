from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PanelConfig(AppConfig):
    """The panel's kit: the site's rules of entry, the admin mixins and display helpers, the
    panel's forms and template filters. Builds on core only; each app's pages are its own
    `admin.py`, the cross-app pages the dashboard's."""

    default = True  # the app's config (this module also holds django-axes' one, below)
    name = "panel"


class LoginProtectionConfig(AxesAppConfig):
    """django-axes under a name support understands (its app has none of its own)."""

    verbose_name = _("Login protection")
