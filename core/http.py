"""What a request says about who sent it, for the API's rate limits (api/throttling.py) and the
panel's login protection (panel/sites.py) alike."""

from django.conf import settings


def client_address(request) -> str:
    """The caller's address: REMOTE_ADDR, or behind our TLS proxy (DJANGO_BEHIND_TLS_PROXY)
    the last X-Forwarded-For entry, the one the proxy itself appended (entries before it are
    whatever the client sent)."""
    if settings.BEHIND_TLS_PROXY:  # type: ignore[misc]  # set by vars().update() in settings
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR", "") or "unknown"
