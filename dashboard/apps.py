from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class DashboardConfig(AppConfig):
    """The panel's pages that read every app: the home page and a team's overview."""

    name = "dashboard"


class DashboardAdminConfig(admin_apps.AdminConfig):
    """Django's admin with the panel's site (dashboard/sites.py), in place of
    django.contrib.admin in INSTALLED_APPS."""

    default = False  # named in INSTALLED_APPS; "dashboard" alone is DashboardConfig
    default_site = "dashboard.sites.DashboardAdminSite"
