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
