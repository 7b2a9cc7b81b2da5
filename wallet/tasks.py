from celery import shared_task


@shared_task
def expire_recharges() -> int:
    from wallet.services import recharges_expire_due

    return recharges_expire_due()


# A mail server's temporary refusal is retried here; a lost message, by the sweep below.
@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def send_notification_alert(notification_id: int) -> bool:
    """E-mail support about a rejected payment notification (once: the row's alert_sent_at)."""
    from wallet.emails import notification_alert_send

    return notification_alert_send(notification_id=notification_id)


@shared_task(ignore_result=True)
def requeue_notification_alerts() -> int:
    from wallet.emails import notification_alerts_requeue

    return notification_alerts_requeue()
