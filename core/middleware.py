"""Cross-cutting HTTP behaviour of the API."""

from django.utils.cache import patch_cache_control

# Public documents that may be cached like any page.
CACHEABLE_API_PATHS = ("/api/v1/schema", "/api/v1/docs")


def no_store_api_middleware(get_response):
    """API answers carry money and passengers' data: no cache (shared or the client's own)
    keeps them, errors included."""

    def middleware(request):
        response = get_response(request)
        path = request.path
        if path.startswith("/api/") and not path.startswith(CACHEABLE_API_PATHS):
            patch_cache_control(response, no_store=True)
        return response

    return middleware
