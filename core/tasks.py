from celery import shared_task

from core.idempotency import idempotency_purge_expired


@shared_task
def purge_idempotency_keys() -> int:
    return idempotency_purge_expired()
