"""Inbound webhook events from the flight suppliers: Duffel's, at
`POST /api/v1/suppliers/duffel/webhooks`, signed with DUFFEL_WEBHOOK_SECRET
(`X-Duffel-Signature`, flights/suppliers/duffel/webhooks.py). An event is only a hint: for
`order.airline_initiated_change_detected` the order's changes are read back from Duffel (a
check task per booking of that order); nothing in the event's body is recorded. Duffel sends an
event at least once and retries for 72 hours: each retry is another read-back, and a change is
recorded once whatever their number."""

import logging

from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from api.apis import json_error
from bookings.services import duffel_order_bookings
from core.exceptions import register_error
from flights.suppliers.duffel.webhooks import AIRLINE_CHANGE_DETECTED, event_from, genuine

logger = logging.getLogger(__name__)
NOT_CONFIGURED = (
    "supplier_webhook_not_configured",
    "Supplier webhook events cannot be received yet; they will be sent again",
)
register_error(
    NOT_CONFIGURED[0],
    503,
    NOT_CONFIGURED[1],
    description="Duffel's webhook event arrived without DUFFEL_WEBHOOK_SECRET set (sent again).",
    module=__name__,
)


@csrf_exempt
def duffel_webhook(request):
    if request.method != "POST":
        response = json_error(
            request, status=405, code="method_not_allowed", message="Method not allowed"
        )
        response["Allow"] = "POST"
        return response
    secret = settings.DUFFEL_WEBHOOK_SECRET
    if not secret:
        # Nothing can be authenticated: a 5xx keeps the event at Duffel, sent again later.
        logger.error("Duffel webhook event received without DUFFEL_WEBHOOK_SECRET set")
        return json_error(request, status=503, code=NOT_CONFIGURED[0], message=NOT_CONFIGURED[1])
    signature = request.headers.get("X-Duffel-Signature", "")
    if not genuine(request.body, signature, secret):
        logger.warning("Rejected a Duffel webhook event: its signature does not match")
        return json_error(request, status=401, code="unauthorized", message="Unauthorized")
    event = event_from(request.body)
    if event is None or event.type != AIRLINE_CHANGE_DETECTED:
        return JsonResponse({"received": True, "result": "ignored"})
    from bookings.tasks import check_booking_airline_changes

    bookings = duffel_order_bookings(order_id=event.order_id)
    for booking_id in bookings:
        check_booking_airline_changes.delay(booking_id)
    logger.info(
        "Duffel event %s (%s) for order %s: %d booking(s) to check",
        event.id,
        event.type,
        event.order_id,
        len(bookings),
    )
    return JsonResponse({"received": True, "result": "checking" if bookings else "unknown_order"})
