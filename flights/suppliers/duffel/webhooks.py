"""Duffel's webhook events (duffel.com/docs/guides/receiving-webhooks): the signature in
`X-Duffel-Signature`, `t=<timestamp>,v1=<hex>`, is the HMAC-SHA256 of `<timestamp>.<raw body>`
under the webhook's secret (lowercase hex), as Duffel's own SDKs check it. An event is only a
hint that something changed: what it names is read back from Duffel, never taken from its body.
"""

import hashlib
import hmac
import json
import re
from dataclasses import dataclass

SIGNATURE = re.compile(r"\At=([^,]+),v1=([0-9a-fA-F]+)\Z")
AIRLINE_CHANGE_DETECTED = "order.airline_initiated_change_detected"


def signature_for(body: bytes, secret: str, timestamp: str) -> str:
    """The `X-Duffel-Signature` value Duffel sends for `body` at `timestamp`."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def genuine(body: bytes, signature: str, secret: str) -> bool:
    """Whether the event was signed with `secret` (a constant-time comparison). No secret, or
    a signature that does not even look like one: not genuine."""
    match = SIGNATURE.match(signature.strip())
    if not secret or match is None:
        return False
    expected = signature_for(body, secret, match.group(1)).rsplit("v1=", 1)[1]
    return hmac.compare_digest(expected, match.group(2).lower())


@dataclass(frozen=True)
class WebhookEvent:
    id: str
    type: str
    live_mode: bool
    order_id: str  # the order the event is about ("" when it names none)


def event_from(body: bytes) -> WebhookEvent | None:
    """The event's type and the order it names (`data.object.order_id`, or the object's `id`
    for an order event); None for a body that is not an event."""
    try:
        event = json.loads(body)
    except ValueError:
        return None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        return None
    data = event.get("data")
    found = data.get("object") if isinstance(data, dict) else None
    found = found if isinstance(found, dict) else {}
    order_id = found.get("order_id")
    if order_id is None and str(found.get("id") or "").startswith("ord_"):
        order_id = found["id"]
    return WebhookEvent(
        id=str(event.get("id") or ""),
        type=event["type"],
        live_mode=event.get("live_mode") is True,
        order_id=str(order_id or ""),
    )
