from celery import shared_task

from api.idempotency import idempotency_purge_expired


# Registered under its name from before the API plumbing left core (issue 16): beat's schedule
# and any message already queued know the task by it.
@shared_task(name="core.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    return idempotency_purge_expired()
