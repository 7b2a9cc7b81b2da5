"""Inbound payment notifications from a provider: authenticated by the provider's own scheme,
then verified at the source (the payment is read back from the provider before anything is
credited, wallet.services.notifications), applied exactly once per provider event id."""

import json
import logging

from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from api.apis import json_error
from core.exceptions import register_error
from wallet.providers import (
    NotificationRejected,
    NotificationUnusable,
    ProviderError,
    get_provider,
)
from wallet.services import notification_receive, transfer_notification_receive

logger = logging.getLogger(__name__)
INBOUND_PROVIDERS = {"asaas"}
# A provider's notification that cannot be handled now: 503, so that the provider sends it again.
register_error(
    ProviderError.code,
    503,
    ProviderError.message,
    description="A payment provider's notification that cannot be handled now (sent again).",
    module=__name__,
)


@csrf_exempt
def provider_notification(request, provider_name: str):
    if provider_name not in INBOUND_PROVIDERS:
        return json_error(request, status=404, code="not_found", message="Not found")
    if request.method != "POST":
        response = json_error(
            request, status=405, code="method_not_allowed", message="Method not allowed"
        )
        response["Allow"] = "POST"
        return response
    try:
        provider = get_provider(provider_name)
    except ProviderError as exc:
        # Not configured here: nothing can be authenticated. A 5xx makes the provider keep the
        # notification and send it again, so no payment is lost while the settings are fixed.
        logger.error("Cannot receive %s notifications: %s", provider_name, exc)
        return json_error(
            request, status=503, code=ProviderError.code, message=ProviderError.message
        )
    try:
        notification = provider.parse_notification(headers=request.headers, body=request.body)
    except NotificationUnusable as exc:
        # Authentic but never usable: 200, so that the provider neither retries it nor pauses
        # its queue over it; nothing is stored (a NUL could not be) and the log keeps why.
        logger.warning("Dropped an unusable %s notification: %s", provider_name, exc)
        return JsonResponse({"received": True, "result": "rejected", "reason": "unusable_event"})
    except NotificationRejected as exc:
        logger.warning("Rejected %s notification: %s", provider_name, exc)
        return json_error(request, status=401, code="unauthorized", message="Unauthorized")
    receive = (
        transfer_notification_receive if notification.kind == "transfer" else notification_receive
    )
    try:
        result, row = receive(
            provider=provider, notification=notification, payload=json.loads(request.body)
        )
    except ProviderError as exc:
        # We could not ask the provider about the payment: nothing is credited and the event id
        # is not recorded. A 5xx makes the provider send the notification again (Asaas retries
        # anything but a 200), and the retry is verified afresh.
        logger.error(
            "Could not read back %s %s %s for notification %s (%s): %s; answered 503 so "
            "that %s sends it again",
            provider_name,
            notification.kind,
            notification.provider_charge_id,
            notification.event_id,
            notification.event_type,
            exc.details,
            provider_name,
        )
        return json_error(
            request, status=503, code=ProviderError.code, message=ProviderError.message
        )
    logger.info(
        "%s notification %s (%s): %s",
        provider_name,
        notification.event_id,
        notification.event_type,
        result,
    )
    body = {"received": True, "result": result}
    if row is not None and row.reason:
        body["reason"] = row.reason
    return JsonResponse(body)
