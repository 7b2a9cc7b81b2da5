"""The panel's site: who may enter at all (roles that fail closed), the address a login is
counted under, and the pages that reset a forgotten password. The concrete site, with the
pages that read every app, is the dashboard's (dashboard/sites.py)."""

import hashlib
import math

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from core.http import client_address
from core.rate_windows import over_limit
from panel.lockout import remember_browser


class PanelLoginForm(AdminAuthenticationForm):
    """The admin's login form; a panel user's login is their e-mail address, and it says so."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = _("E-mail")


class PanelAdminSite(admin.AdminSite):
    site_header = _("Agency back office")
    site_title = _("Agency back office")
    index_title = _("Control panel")
    site_url = None  # no public site behind the panel: no "View site" link

    login_form = PanelLoginForm

    def each_context(self, request):
        """A visitor not logged in (the login, a forgotten password, an invitation) sees no
        sidebar: it would list nothing."""
        context = super().each_context(request)
        if not request.user.is_authenticated:
            context["is_nav_sidebar_enabled"] = False
        return context

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


RESET_SUBJECT = "registration/panel_password_reset_subject.txt"
RESET_BODY = "registration/panel_password_reset_email.txt"
RESET_HTML = "registration/panel_password_reset_email.html"


class PanelPasswordResetForm(PasswordResetForm):
    """Django's form also e-mails panel users who never set a password (a team's first owner is
    created without one): for them, "forgot password" is how they choose it. The e-mail is sent
    from the `emails` queue, at most `PANEL_PASSWORD_RESET_LIMIT_PER_EMAIL` times per address
    (more are dropped without a word: the answer never tells whether an address exists)."""

    def get_users(self, email):
        candidates = get_user_model()._default_manager.filter(email__iexact=email, is_active=True)
        return (u for u in candidates if u.is_staff and u.email.lower() == email.lower())

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        target = hashlib.sha256(to_email.lower().encode()).hexdigest()[:32]
        if over_limit(
            f"password-reset:email:{target}", settings.PANEL_PASSWORD_RESET_LIMIT_PER_EMAIL
        ):
            return
        from panel.tasks import send_password_reset_email

        send_password_reset_email.delay(
            user_id=context["user"].pk,
            domain=context["domain"],
            site_name=context["site_name"],
            protocol=context["protocol"],
            language=get_language(),
        )


def password_reset_send(
    *, user_id: int, domain: str, site_name: str, protocol: str, language: str
) -> bool:
    """Render and send one user's password-reset e-mail (Django's templates and context); False
    when the user can no longer reset (gone, deactivated)."""
    user = get_user_model()._default_manager.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        return False
    context = {
        "email": user.email,
        "domain": domain,
        "site_name": site_name,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": protocol,
    }
    with translation.override(language):
        PasswordResetForm().send_mail(
            RESET_SUBJECT,
            RESET_BODY,
            context,
            None,
            user.email,
            html_email_template_name=RESET_HTML,
        )
    return True


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
    """At most `PANEL_PASSWORD_RESET_LIMIT_PER_ADDRESS` requests per client address (then 429
    with the form and a message); the form limits each target address apart."""

    form_class = PanelPasswordResetForm
    email_template_name = RESET_BODY
    html_email_template_name = RESET_HTML
    subject_template_name = RESET_SUBJECT
    success_url = reverse_lazy("password_reset_done")

    def post(self, request, *args, **kwargs):
        retry_after = over_limit(
            f"password-reset:address:{client_address(request)}",
            settings.PANEL_PASSWORD_RESET_LIMIT_PER_ADDRESS,
        )
        if retry_after is None:
            return super().post(request, *args, **kwargs)
        form = self.get_form()
        form.errors.clear()
        form.add_error(None, _("Too many requests from this address. Try again later."))
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(max(1, math.ceil(retry_after)))
        return response
