from core.exceptions import NotFound
from webhooks.models import WebhookEndpoint


class WebhookNotFound(NotFound):
    code = "webhook_not_found"
    message = "Webhook not found"


def webhook_list(*, team, live_mode: bool):
    return WebhookEndpoint.objects.filter(team=team, live_mode=live_mode).order_by("created_at")


def webhook_get(*, team, live_mode: bool, webhook_id: str) -> WebhookEndpoint:
    """Another team's or the other mode's id is as unknown as a made-up one."""
    endpoint = webhook_list(team=team, live_mode=live_mode).filter(pk=webhook_id).first()
    if endpoint is None:
        raise WebhookNotFound()
    return endpoint
