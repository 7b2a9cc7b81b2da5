from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def deliver_webhook(delivery_id: int, lease_id: str = "") -> None:
    """One attempt of one delivery. A duplicate message is harmless: the claim lets only one
    worker send a due delivery; the others find nothing to do."""
    from webhooks.services import delivery_attempt

    delivery_attempt(delivery_id, lease_id=lease_id)


@shared_task(ignore_result=True)
def sweep_deliveries() -> int:
    """Queue whatever is due: retries, and deliveries whose message or worker was lost."""
    from webhooks.services import deliveries_sweep

    return deliveries_sweep()


@shared_task(acks_late=True)
def send_deactivation_alert(endpoint_id: str) -> bool:
    from webhooks.emails import deactivation_alert_send

    return deactivation_alert_send(endpoint_id=endpoint_id)
