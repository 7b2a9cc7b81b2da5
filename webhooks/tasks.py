from celery import shared_task


@shared_task(bind=True, acks_late=True, ignore_result=True)
def deliver_webhooks(self, endpoint_id: str, lease_id: str = "") -> None:
    """A batch of an endpoint's due deliveries, oldest first, one at a time (what the services
    queue). In a worker, handed to the process's delivery pool, and the task returns at once
    (webhooks/services/pool.py); run eagerly or called directly, sent here. A duplicate message
    is harmless: the claim lets only one worker take a due delivery; the others find nothing
    to do, or the deliveries due since."""
    from webhooks.services import deliveries_send_batch, deliveries_send_batch_in_pool

    if self.request.is_eager or self.request.called_directly:
        deliveries_send_batch(endpoint_id, lease_id=lease_id)
    else:
        deliveries_send_batch_in_pool(endpoint_id, lease_id=lease_id)


@shared_task(acks_late=True, ignore_result=True)
def deliver_webhook(delivery_id: int, lease_id: str = "") -> None:
    """One attempt of one delivery: what was queued before batches; kept so that messages
    queued by an older release are still processed. A duplicate message is harmless."""
    from webhooks.services import delivery_attempt

    delivery_attempt(delivery_id, lease_id=lease_id)


@shared_task(ignore_result=True)
def sweep_deliveries() -> int:
    """Queue whatever is due: retries, deliveries whose message or worker was lost, and
    deactivation alerts that never went out."""
    from webhooks.services import deactivation_alerts_requeue, deliveries_sweep

    deactivation_alerts_requeue()
    return deliveries_sweep()


@shared_task(ignore_result=True)
def drop_expired_previous_secrets() -> int:
    """Forget rolled secrets whose overlap has ended."""
    from webhooks.services import webhook_previous_secrets_drop

    return webhook_previous_secrets_drop()


# A mail server's temporary refusal is retried here; a lost message, by the sweep.
@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def send_deactivation_alert(endpoint_id: str) -> bool:
    from webhooks.emails import deactivation_alert_send

    return deactivation_alert_send(endpoint_id=endpoint_id)
