"""`GET /metrics`: the Prometheus exposition (docs/operations.md). Not public: it answers only
`Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN, or with another token or none,
it answers the 404 of any unknown path, so that nobody learns it exists."""

import hmac

from django.conf import settings
from django.http import HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from api.apis import api_not_found
from operations.metrics import scrape_registry


def metrics(request):
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    # Compared in constant time, as bytes: a wrong token's length or prefix tells nothing.
    if not token or not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return api_not_found(request)
    return HttpResponse(generate_latest(scrape_registry()), content_type=CONTENT_TYPE_LATEST)
