from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from core.emails import email_message
from core.i18n import sao_paulo_time_for_people
from webhooks.models import WebhookEndpoint


def alert_recipients(endpoint: WebhookEndpoint) -> list[str]:
    """The team's notification address; without one, its users."""
    if endpoint.team.notification_email:
        return [endpoint.team.notification_email]
    return sorted({u.email for u in endpoint.team.users.filter(is_active=True) if u.email})


def deactivation_alert_message(*, endpoint: WebhookEndpoint, to: list[str]):
    """The alert, built and not sent, in the team's language (core.emails)."""
    return email_message(
        template="webhook_deactivated",
        subject=lambda: gettext("Webhook deactivated after failed deliveries"),
        context=lambda: {
            "endpoint": endpoint,
            "failures": endpoint.consecutive_failures,
            "deactivated": sao_paulo_time_for_people(endpoint.deactivated_at)
            if endpoint.deactivated_at
            else "",
            "panel_url": settings.PUBLIC_BASE_URL.rstrip("/")
            + reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]),
        },
        to=to,
        team=endpoint.team,
        test_mode=not endpoint.live_mode,
        from_service=True,  # the service tells the agency: replies go to support
    )


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
            deactivation_alert_message(endpoint=endpoint, to=recipients).send()
        endpoint.alert_sent_at = timezone.now()
        endpoint.save(update_fields=["alert_sent_at"])
    return True
