"""The panel's site: who may enter at all (roles that fail closed), the address a login is
counted under, and the pages that reset a forgotten password. The concrete site, with the
pages that read every app, is the dashboard's (dashboard/sites.py)."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _

from core.http import client_address
from panel.lockout import remember_browser


class PanelAdminSite(admin.AdminSite):
    site_header = _("Agency back office")
    site_title = _("Agency back office")
    index_title = _("Control panel")
    site_url = None  # no public site behind the panel: no "View site" link

    def login(self, request, extra_context=None):
        """Django's login; a successful one remembers the browser as the user's own, which a
        lockout from elsewhere spares (panel/lockout.py)."""
        response = super().login(request, extra_context)
        if (
            request.method == "POST"
            and response.status_code == 302
            and request.user.is_authenticated
        ):
            remember_browser(request, response, request.user.get_username())
        return response

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


# --- A forgotten password -----------------------------------------------------------------------
# Django's views with our form and templates; config/urls.py mounts them under /admin/.


class PanelPasswordResetForm(PasswordResetForm):
    """Django's form also e-mails panel users who never set a password (a team's first owner is
    created without one): for them, "forgot password" is how they choose it."""

    def get_users(self, email):
        candidates = get_user_model()._default_manager.filter(email__iexact=email, is_active=True)
        return (u for u in candidates if u.is_staff and u.email.lower() == email.lower())


class PanelContextMixin:
    """Django's auth views with the panel's header and title."""

    def get_context_data(self, **kwargs):
        return {**admin.site.each_context(self.request), **super().get_context_data(**kwargs)}


class PanelPasswordResetDoneView(PanelContextMixin, auth_views.PasswordResetDoneView):
    pass


class PanelPasswordResetConfirmView(PanelContextMixin, auth_views.PasswordResetConfirmView):
    pass


class PanelPasswordResetCompleteView(PanelContextMixin, auth_views.PasswordResetCompleteView):
    pass


class PanelPasswordResetView(PanelContextMixin, auth_views.PasswordResetView):
    form_class = PanelPasswordResetForm
    email_template_name = "registration/panel_password_reset_email.txt"
    html_email_template_name = "registration/panel_password_reset_email.html"
    subject_template_name = "registration/panel_password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")
