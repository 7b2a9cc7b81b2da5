from celery import shared_task
from django.utils import timezone

from wallet.models import Recharge
from wallet.services import recharge_expire


@shared_task
def expire_recharges() -> int:
    """Expire pending PIX and boleto recharges past their deadline (each in its own
    transaction, under its row lock; a payment that wins the race is kept)."""
    now = timezone.now()
    due = Recharge.objects.filter(status=Recharge.Status.PENDING, expires_at__lte=now)
    return sum(recharge_expire(recharge=r, now=now) for r in due.iterator())


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
