"""The API's middleware: no caching of its answers, what every request under /api/ goes
through before any view reads it, and the panel's middleware that API requests go past
(people's language and time zone: core/middleware.py)."""

from collections.abc import Callable

from auditlog.middleware import AuditlogMiddleware as BaseAuditlogMiddleware
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware as BaseAuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware as BaseMessageMiddleware
from django.utils.cache import patch_cache_control
from whitenoise.middleware import WhiteNoiseMiddleware as BaseWhiteNoiseMiddleware  # type: ignore[import-untyped]

from api.apis import json_error
from api.versions import (
    HEADER as API_VERSION_HEADER,
)
from api.versions import (
    InvalidApiVersion,
    request_version,
    requested_unknown_version,
    unknown_version_message,
)

# --- Caching of API answers ---

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


# --- What every API request goes through first ---

# `ApiRequestMiddleware`, what every request under /api/ goes
# through before any view reads it, with the guarantee that every error it gets is in the one
# error shape (docs/decisions.md "Errors", "Input limits"):
#
# - No CSRF check: API endpoints authenticate with a Bearer key (or a signed page token, or a
#   provider's signature), never with a cookie, so a cross-site form cannot act for anybody; and
#   Django's HTML "CSRF verification failed" page must not answer an API client (a POST to an
#   unknown path is our JSON 404).
# - A NUL character in the path or the query string is `400 invalid_request` (PostgreSQL refuses
#   it in a text value: it used to be a 500 wherever an id was looked up).
# - A body over API_MAX_BODY_BYTES is `413 payload_too_large`, before it is read.
# - An error response that is not JSON (such as `require_GET`'s bare 405) is rewritten in the
#   error shape, with its status and headers.
# - An `Api-Version` that names no version is `400 invalid_api_version`, before anything else;
#   every answer, errors included, says the version it is in (`Api-Version`, api/versions.py).

API_PREFIX = "/api/"

# Status → (code, message) for error responses that a view or Django made without our shape.
_SHAPES = {
    400: ("invalid_request", "Invalid request parameters"),
    401: ("unauthorized", "Unauthorized"),
    403: ("forbidden", "Forbidden"),
    404: ("not_found", "Not found"),
    405: ("method_not_allowed", "Method not allowed"),
    413: ("payload_too_large", "Request body too large"),
    415: ("unsupported_media_type", "Content-Type must be application/json"),
    429: ("rate_limited", "Rate limit exceeded"),
}


def _has_nul(request) -> str | None:
    if "\x00" in request.path_info:
        return "path"
    for name, values in request.GET.lists():
        if "\x00" in name or any("\x00" in value for value in values):
            return name.replace("\x00", "") or "query"
    return None


def _content_length(request) -> int:
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


class ApiRequestMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        response = self._answer(request)
        response[API_VERSION_HEADER] = request_version(request)
        return response

    def _answer(self, request):
        request._dont_enforce_csrf_checks = True  # Bearer keys, no cookies: see the docstring
        unknown = requested_unknown_version(request)
        if unknown is not None:
            return json_error(
                request,
                status=InvalidApiVersion.status_code,
                code=InvalidApiVersion.code,
                message=InvalidApiVersion.message,
                details={API_VERSION_HEADER: unknown_version_message(unknown)},
            )
        where = _has_nul(request)
        if where is not None:
            return json_error(
                request,
                status=400,
                code="invalid_request",
                message="Invalid request parameters",
                details={where: "Must not contain NUL characters."},
            )
        limit = settings.API_MAX_BODY_BYTES
        if _content_length(request) > limit:
            return json_error(
                request,
                status=413,
                code="payload_too_large",
                message="Request body too large",
                details={"body": f"At most {limit} bytes."},
            )
        response = self.get_response(request)
        if response.status_code >= 400 and not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            response = _shaped(request, response)
        return response


def _shaped(request, response):
    code, message = _SHAPES.get(response.status_code, ("error", response.reason_phrase))
    shaped = json_error(request, status=response.status_code, code=code, message=message)
    for header in ("Allow", "Retry-After", "WWW-Authenticate"):
        if header in response:
            shaped[header] = response[header]
    return shaped


# --- The panel's middleware, which API requests go straight past ---
#
# Static files, the panel's user and its flash messages are for people in the panel. An API
# request authenticates with its key (DRF sets `request.user` to the key's client) and these
# did nothing for it, at a cost of about a tenth of the CPU of `GET /api/v1/wallet/balance`
# (docs/performance.md). Subclasses, because Django's admin checks look for these classes (or
# subclasses) in MIDDLEWARE. Sessions and CSRF stay Django's own: `check --deploy` looks for
# them by name and would skip their cookie checks.


class SkippedByTheApi:
    get_response: Callable

    def __call__(self, request):
        if request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        return super().__call__(request)  # the middleware's own


class WhiteNoiseMiddleware(SkippedByTheApi, BaseWhiteNoiseMiddleware):
    """Static files are never under /api/."""


class AuthenticationMiddleware(SkippedByTheApi, BaseAuthenticationMiddleware):
    """The panel's user, from the session; the API's client comes from its key."""


class MessageMiddleware(SkippedByTheApi, BaseMessageMiddleware):
    pass


class CSPMiddleware(SkippedByTheApi, BaseCSPMiddleware):
    """The panel's Content-Security-Policy. An API request skips it entirely: no header for
    JSON, and none of the reference cycle django-csp gives each request it sees (the request
    holds a lazy nonce that holds the request), which would leave every API request and what
    it references to the cyclic garbage collector."""


class AuditlogMiddleware(BaseAuditlogMiddleware):
    """Who made a change and from where, on its audit entries. An API read changes nothing, so
    it goes past; an API write keeps its client's address on the entries it causes."""

    def __call__(self, request):
        if request.method in ("GET", "HEAD", "OPTIONS") and request.path_info.startswith(
            API_PREFIX
        ):
            return self.get_response(request)
        return super().__call__(request)
