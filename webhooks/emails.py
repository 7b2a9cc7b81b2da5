from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from core.i18n import people_locale
from webhooks.models import WebhookEndpoint


def alert_recipients(endpoint: WebhookEndpoint) -> list[str]:
    """The team's notification address; without one, its users."""
    if endpoint.team.notification_email:
        return [endpoint.team.notification_email]
    return sorted({u.email for u in endpoint.team.users.filter(is_active=True) if u.email})


def deactivation_alert_send(*, endpoint_id: str) -> bool:
    """E-mail the team that its endpoint was deactivated, once per deactivation (the row's
    `alert_sent_at`, cleared on reactivation). Returns whether it was sent now."""
    with transaction.atomic():
        endpoint = (
            WebhookEndpoint.objects.select_for_update()
            .select_related("team")
            .filter(pk=endpoint_id)
            .first()
        )
        if endpoint is None or endpoint.active or endpoint.alert_sent_at is not None:
            return False
        recipients = alert_recipients(endpoint)
        if recipients:
            context = {
                "endpoint": endpoint,
                "team": endpoint.team,
                "test_mode": not endpoint.live_mode,
                "failures": endpoint.consecutive_failures,
                "panel_url": settings.PUBLIC_BASE_URL.rstrip("/")
                + reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]),
            }
            with people_locale():
                subject = gettext("Webhook deactivated after failed deliveries")
                if not endpoint.live_mode:
                    subject = gettext("[TEST] %(subject)s") % {"subject": subject}
                message = EmailMultiAlternatives(
                    subject=subject,
                    body=render_to_string("emails/webhook_deactivated.txt", context),
                    from_email=settings.DEFAULT_FROM_EMAIL,
                    to=recipients,
                )
                message.attach_alternative(
                    render_to_string("emails/webhook_deactivated.html", context), "text/html"
                )
            message.send()
        endpoint.alert_sent_at = timezone.now()
        endpoint.save(update_fields=["alert_sent_at"])
    return True
