"""Every HTTP request's latency, by route, method and status
(`agency_http_request_duration_seconds`). Outermost in MIDDLEWARE, so that the time counts every
other middleware too. The route is the URL pattern's name (`bookings`, `booking-confirm`,
`admin:index`), or its pattern when it has no name: never the path, whose ids would make a series
per booking."""

import time

from operations.metrics import REQUESTS

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_of(request) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unresolved"  # no URL pattern matched, or a middleware answered first
    return match.view_name if match.url_name else (match.route or "unresolved")


def request_metrics_middleware(get_response):
    def middleware(request):
        started = time.perf_counter()
        response = get_response(request)
        method = request.method if request.method in METHODS else "other"
        REQUESTS.labels(route_of(request), method, str(response.status_code)).observe(
            time.perf_counter() - started
        )
        return response

    return middleware
