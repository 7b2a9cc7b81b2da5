from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from flights.models import OfferRequest

# A search (with its offers) is kept this long after its last offer expires, so that booking a
# recently expired offer answers "Offer expired"; after that it is "Offer not found". Storage
# held per team is then at most (offer lifetime + this + the purge interval) of searches.
KEEP_AFTER_EXPIRY = timedelta(hours=1)


@shared_task
def purge_expired_offers() -> int:
    """Delete the searches whose offers all expired more than KEEP_AFTER_EXPIRY ago (one
    indexed DELETE; beat runs it every 5 minutes)."""
    cutoff = timezone.now() - KEEP_AFTER_EXPIRY
    deleted, _ = OfferRequest.objects.filter(expires_at__lt=cutoff).delete()
    return deleted
