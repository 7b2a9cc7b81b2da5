"""The panel's site: who may enter at all (roles that fail closed), and the address a login is
counted under. The concrete site, with the pages that read every app, is the dashboard's
(dashboard/sites.py)."""

from django.contrib import admin
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


def login_client_address(request) -> str | None:
    """The address django-axes counts: the one the API's rate limits use (core.http), or
    None for a login without a client (a test's force_login), which axes then does not count."""
    address = client_address(request)
    return None if address == "unknown" else address
