from celery import shared_task


@shared_task
def purge_expired_offers() -> int:
    from flights.services import offers_purge_expired

    return offers_purge_expired()
