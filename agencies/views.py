"""Panel pages outside the admin's own views: accepting an invitation and resetting a forgotten
password (Django's views with our form and templates)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from agencies.models import User
from agencies.services import (
    InvitationInvalid,
    InvitationUserExists,
    invitation_accept,
    invitation_from_token,
    invitation_usable,
)


@never_cache
@sensitive_post_parameters("new_password1", "new_password2")
def invitation_accept_view(request, token: str):
    """The invitee chooses their password; the invitation is then used and cannot be again."""
    invitation = invitation_from_token(token)
    panel = admin.site.each_context(request)  # the panel's header and title
    if not invitation_usable(invitation):
        return TemplateResponse(request, "registration/invitation_invalid.html", panel, status=410)
    # An unsaved user so that the password validators can compare with the e-mail.
    invitee = User(username=invitation.email, email=invitation.email, team=invitation.team)
    form = SetPasswordForm(invitee, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invitation_accept(invitation=invitation, password=form.cleaned_data["new_password1"])
        except (InvitationInvalid, InvitationUserExists):
            return TemplateResponse(
                request, "registration/invitation_invalid.html", panel, status=410
            )
        return redirect(reverse_lazy("admin:login") + "?invited=1")
    return TemplateResponse(
        request,
        "registration/invitation_accept.html",
        {**panel, "form": form, "invitation": invitation, "title": invitation.team.name},
    )


class PanelPasswordResetForm(PasswordResetForm):
    """Django's form also e-mails panel users who never set a password (a team's first owner is
    created without one): for them, "forgot password" is how they choose it."""

    def get_users(self, email):
        candidates = User._default_manager.filter(email__iexact=email, is_active=True)
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
