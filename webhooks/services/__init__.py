from webhooks.services.deliveries import (
    deactivation_alerts_requeue,
    deliveries_dispatch_on_commit,
    deliveries_send_batch,
    deliveries_sweep,
    delivery_attempt,
    delivery_redeliver,
    delivery_send,
    event_payload,
    sign,
)
from webhooks.services.endpoints import (
    webhook_create,
    webhook_delete,
    webhook_previous_secrets_drop,
    webhook_reactivate_after_test,
    webhook_rotate_secret,
    webhook_send_test_event,
    webhook_test_now,
    webhook_update,
)
from webhooks.services.events import EventSql, NewEvent, event_record, events_record
from webhooks.services.pool import deliveries_send_batch_in_pool
from webhooks.services.recovery import WebhookInactive, webhook_recover

__all__ = [
    "EventSql",
    "NewEvent",
    "WebhookInactive",
    "deactivation_alerts_requeue",
    "deliveries_dispatch_on_commit",
    "deliveries_send_batch",
    "deliveries_send_batch_in_pool",
    "deliveries_sweep",
    "delivery_attempt",
    "delivery_redeliver",
    "delivery_send",
    "event_payload",
    "event_record",
    "events_record",
    "sign",
    "webhook_create",
    "webhook_delete",
    "webhook_previous_secrets_drop",
    "webhook_reactivate_after_test",
    "webhook_recover",
    "webhook_rotate_secret",
    "webhook_send_test_event",
    "webhook_test_now",
    "webhook_update",
]
