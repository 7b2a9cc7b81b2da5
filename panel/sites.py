"""The panel's site: who may enter at all (roles that fail closed), and the address a login is
counted under. The concrete site, with the cross-app pages, is the dashboard's
(dashboard/sites.py)."""

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from core.http import client_address


class PanelAdminSite(admin.AdminSite):
    site_header = _("Agency back office")
    site_title = _("Agency back office")
    index_title = _("Control panel")
    site_url = None  # no public site behind the panel: no "View site" link

    def has_permission(self, request):
        """Two kinds of user, both explicit: support (a superuser, or a member of the Support
        group) and agency users (a team is required). Staff with neither see nothing."""
        user = request.user
        return bool(
            user.is_active
            and user.is_staff
            and (getattr(user, "is_support", False) or getattr(user, "team_id", None))
        )

    def index(self, request, extra_context=None):
        """The home page: the agency's day, or support's worklist (agencies/home.py, named by
        settings.PANEL_HOME_CONTEXT: the panel imports no app), above the list of every page
        (templates/admin/index.html)."""
        home_page_context = import_string(settings.PANEL_HOME_CONTEXT)
        return super().index(request, {**home_page_context(request), **(extra_context or {})})


class PanelAdminConfig(AdminConfig):
    default_site = "panel.sites.PanelAdminSite"


def login_client_address(request) -> str | None:
    """The address django-axes counts: the one the API's rate limits use (core.http), or
    None for a login without a client (a test's force_login), which axes then does not count."""
    address = client_address(request)
    return None if address == "unknown" else address
