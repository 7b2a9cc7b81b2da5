from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from flights.models import Offer, OfferRequest

# Offers are kept a little past expiry so that a booking attempt on one gets "Offer expired"
# rather than "not found".
PURGE_AFTER = timedelta(hours=24)


@shared_task
def purge_expired_offers() -> int:
    cutoff = timezone.now() - PURGE_AFTER
    deleted, _ = Offer.objects.filter(expires_at__lt=cutoff).delete()
    OfferRequest.objects.filter(created_at__lt=cutoff, offers__isnull=True).delete()
    return deleted
