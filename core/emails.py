"""The one way e-mails to people are built (docs/emails.md): rendered in the team's language and
São Paulo time, HTML with a plain-text part, from the service's address under the agency's
name, answered to the agency.

Callers build the message with `email_message` (the samples command and the tests look at it
without sending) and send it with `.send()`; what to send and when stays with each app (the
rows that make each e-mail go out once)."""

from collections.abc import Callable
from email.utils import formataddr

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils.translation import gettext

from core.i18n import people_locale


def team_language(team) -> str:
    """The language a team's e-mails are written in (Portuguese unless it chose English)."""
    language = getattr(team, "language", "") or settings.LANGUAGE_CODE
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def service_sender() -> str:
    """`"Painel da Agência" <SERVICE_EMAIL_ADDRESS>`: the service speaking for itself
    (EMAIL_SENDER_NAME, Portuguese), to an agency or to support."""
    name = " ".join(settings.EMAIL_SENDER_NAME.split())
    return formataddr((name, settings.SERVICE_EMAIL_ADDRESS))


def sender(team=None) -> str:
    """`"Agência X" <SERVICE_EMAIL_ADDRESS>`: the service's own mailbox (its domain passes SPF and
    DKIM), the agency's name as the name people see. The name is one line (no header
    injection); quoting and RFC 2047 encoding are `formataddr`'s. Without a team: the service's
    own name (`service_sender`)."""
    if team is None or not team.name.strip():
        return service_sender()
    name = " ".join(team.name.split())
    return formataddr((name, settings.SERVICE_EMAIL_ADDRESS))


def email_message(
    *,
    template: str,
    subject: str | Callable[[], str],
    context: dict | Callable[[], dict],
    to: list[str],
    team=None,
    test_mode: bool = False,
    language: str | None = None,
    from_service: bool = False,
    reply_to: list[str] | None = None,
) -> EmailMultiAlternatives:
    """`templates/emails/<template>.txt` as the body and `.html` as its alternative, rendered in
    the team's language (or `language`) and São Paulo time; `subject` and `context` may be
    callables, called in that language (dates and amounts written for people). Test-mode
    subjects start with "[TEST]" (translated).

    Who it is from: a team's e-mail to its travellers comes under the agency's name, replies to
    the team's notification address. What the service itself tells an agency (`from_service`:
    a webhook alert, a withdrawal, the agency's copy of a booking e-mail) comes under the
    service's name, replies to support (SUPPORT_EMAIL_ADDRESS); so does an e-mail without a
    team. `reply_to` overrides either."""
    language = language or team_language(team)
    with people_locale(language):
        context = context() if callable(context) else context
        context = {**context, "team": team, "test_mode": test_mode, "language": language}
        text = str(subject() if callable(subject) else subject)
        if test_mode:
            text = gettext("[TEST] %(subject)s") % {"subject": text}
        if reply_to is None:
            reply_to = _reply_to(team, from_service)
        message = EmailMultiAlternatives(
            subject=" ".join(text.split()),
            body=render_to_string(f"emails/{template}.txt", context),
            from_email=service_sender() if from_service else sender(team),
            to=to,
            reply_to=reply_to or None,
        )
        message.attach_alternative(
            render_to_string(f"emails/{template}.html", context), "text/html"
        )
    return message


def _reply_to(team, from_service: bool) -> list[str]:
    if team is None or from_service:
        return [settings.SUPPORT_EMAIL_ADDRESS] if settings.SUPPORT_EMAIL_ADDRESS else []
    return [team.notification_email] if team.notification_email else []
