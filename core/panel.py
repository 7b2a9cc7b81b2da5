"""The panel's site: who may enter at all (roles that fail closed)."""

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig


class PanelAdminSite(admin.AdminSite):
    # Titles and header: core/admin.py.

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
        """The home page: the agency's day, or support's worklist (agencies/home.py), above the
        list of every page (templates/admin/index.html)."""
        from agencies.home import home_page_context

        return super().index(request, {**home_page_context(request), **(extra_context or {})})


class PanelAdminConfig(AdminConfig):
    default_site = "core.panel.PanelAdminSite"


def login_client_address(request) -> str | None:
    """The address django-axes counts: the one the API's rate limits use (core.throttling), or
    None for a login without a client (a test's force_login), which axes then does not count."""
    from core.throttling import client_address

    address = client_address(request)
    return None if address == "unknown" else address
