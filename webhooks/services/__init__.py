from webhooks.services.deliveries import (
    deactivation_alerts_requeue,
    deliveries_dispatch_on_commit,
    deliveries_sweep,
    delivery_attempt,
    delivery_redeliver,
    event_payload,
    sign,
)
from webhooks.services.endpoints import (
    webhook_create,
    webhook_delete,
    webhook_send_test_event,
    webhook_update,
)
from webhooks.services.events import EventSql, event_record

__all__ = [
    "EventSql",
    "deactivation_alerts_requeue",
    "deliveries_dispatch_on_commit",
    "deliveries_sweep",
    "delivery_attempt",
    "delivery_redeliver",
    "event_payload",
    "event_record",
    "sign",
    "webhook_create",
    "webhook_delete",
    "webhook_send_test_event",
    "webhook_update",
]
