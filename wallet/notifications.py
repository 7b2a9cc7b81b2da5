"""Inbound payment notifications from a provider: authenticated by the provider's own scheme,
applied exactly once per provider event id (a unique constraint), and a completed recharge is
credited exactly once (recharge_complete)."""

import json
import logging

from django.db import IntegrityError, transaction
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from core.apis import json_error
from wallet.models import ProviderNotification, Recharge
from wallet.providers import NotificationRejected, ProviderError, get_provider
from wallet.services import recharge_complete, recharge_fail

logger = logging.getLogger(__name__)
INBOUND_PROVIDERS = {"asaas"}


def notification_apply(*, provider_name: str, notification, payload: dict) -> str:
    """Record the notification once and act on it. Returns what happened."""
    recharge = Recharge.objects.filter(
        provider=provider_name, provider_charge_id=notification.provider_charge_id
    ).first()
    try:
        with transaction.atomic():
            ProviderNotification.objects.create(
                provider=provider_name,
                event_id=notification.event_id,
                event_type=notification.event_type,
                recharge=recharge,
                payload=payload,
            )
            if recharge is None:
                return "unknown_charge"
            if notification.outcome == "paid":
                recharge_complete(
                    recharge=recharge, amount=notification.amount, paid_at=notification.paid_at
                )
            elif notification.outcome == "failed":
                recharge_fail(recharge=recharge, reason=notification.event_type)
    except IntegrityError:
        return "duplicate"  # this event id was already applied
    return notification.outcome


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
    except NotificationRejected as exc:
        logger.warning("Rejected %s notification: %s", provider_name, exc)
        return json_error(request, status=401, code="unauthorized", message="Unauthorized")
    result = notification_apply(
        provider_name=provider_name, notification=notification, payload=json.loads(request.body)
    )
    logger.info(
        "%s notification %s (%s): %s",
        provider_name,
        notification.event_id,
        notification.event_type,
        result,
    )
    return JsonResponse({"received": True, "result": result})
