"""The one shape of every API error, and DRF's exception handler that renders each one in it:

    {"success": false, "error": {"code": "...", "message": "...", "details": ...,
                                 "request_id": "...", "doc_url": "..."}}

- `details` has one shape (`error_details`): an object mapping a field path
  (`passengers[1].born_on`, `slices[0].origin`, `Idempotency-Key`, `body`) to a list of
  messages, or null when there is nothing to add.
- `request_id` is the request's `X-Request-Id` (django-guid), so support finds the log lines.
- `doc_url` is the code's page in the error reference (what to do, whether a retry can succeed).
- The errors themselves and their catalogue are core's (core/exceptions.py); Django's and DRF's
  own answers are mapped here to our codes and registered in the catalogue.
"""

import logging
import math

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django_guid import get_guid
from rest_framework import exceptions as drf
from rest_framework.response import Response

from core.exceptions import (
    ApplicationError,
    InvalidRequest,
    NotFound,
    TooManyRequests,
    check_catalogued,
    register_error,
)

logger = logging.getLogger(__name__)


# Answers that no ApplicationError gives: Django's and DRF's own, mapped to our shape.
register_error(
    "forbidden", 403, "Forbidden", description="Not allowed to this key or page.", module=__name__
)
register_error(
    "method_not_allowed",
    405,
    "Method not allowed",
    description="The path does not take this method; `Allow` lists those it takes.",
    module=__name__,
)
register_error(
    "not_acceptable",
    406,
    "Not acceptable",
    description="`Accept` excludes application/json.",
    module=__name__,
)
register_error(
    "payload_too_large",
    413,
    "Request body too large",
    description="A body over API_MAX_BODY_BYTES (1 MiB), refused before it is read.",
    module=__name__,
)
register_error(
    "unsupported_media_type",
    415,
    "Content-Type must be application/json",
    description="A body that is not `application/json`.",
    module=__name__,
)
register_error(
    "internal_error",
    500,
    "Internal server error",
    description="A bug: logged with the request id, nothing of it is revealed.",
    module=__name__,
)


# --- The one error body -----------------------------------------------------------------------


def error_details(details) -> dict[str, list[str]] | None:
    """The one shape of `error.details`: field path → list of messages, or None.

    Accepts what raise sites and DRF give: `{field: message}`, `{field: [messages]}`, nested
    serializer errors (`{"passengers": [{}, {"born_on": [...]}]}` → `passengers[1].born_on`),
    a bare message or list of messages (about the whole body: `body`)."""
    flat: dict[str, list[str]] = {}
    _flatten(details, "", flat)
    return flat or None


def _flatten(value, path: str, flat: dict[str, list[str]]) -> None:
    if value is None:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{path}.{key}" if path else str(key), flat)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            if isinstance(item, dict | list | tuple):
                _flatten(item, f"{path or 'body'}[{index}]", flat)
            else:
                _flatten(item, path, flat)
    else:
        flat.setdefault(path or "body", []).append(str(value))


def error_body(*, code: str, message: str, details=None, status: int | None = None) -> dict:
    """The error shape; with `status`, checked against the catalogue when
    ERROR_CATALOGUE_STRICT is on (the tests)."""
    if status is not None and getattr(settings, "ERROR_CATALOGUE_STRICT", False):
        check_catalogued(code=code, status=status, message=message)
    return {
        "success": False,
        "error": {
            "code": code,
            "message": message,
            "details": error_details(details),
            "request_id": get_guid(),
            "doc_url": error_doc_url(code),
        },
    }


def error_doc_url(code: str) -> str:
    """The code's entry in the error reference the service serves (api/error_docs.py)."""
    return f"{settings.ERROR_DOCS_URL}/{code}"


# DRF's own exceptions, mapped to our codes and messages.
_DRF_ERRORS = [
    (drf.NotAuthenticated, "unauthorized", "Unauthorized"),
    (drf.AuthenticationFailed, "unauthorized", "Unauthorized"),
    (drf.PermissionDenied, "forbidden", "Forbidden"),
    (drf.NotFound, "not_found", "Not found"),
    (drf.MethodNotAllowed, "method_not_allowed", "Method not allowed"),
    (drf.NotAcceptable, "not_acceptable", "Not acceptable"),
    (drf.UnsupportedMediaType, "unsupported_media_type", "Content-Type must be application/json"),
    (drf.Throttled, "rate_limited", "Rate limit exceeded"),
    (drf.ValidationError, InvalidRequest.code, InvalidRequest.message),
    (drf.ParseError, InvalidRequest.code, InvalidRequest.message),
]


def api_exception_handler(exc, context):
    headers = {}
    if isinstance(exc, ApplicationError):
        status_code, code, message, details = exc.status_code, exc.code, exc.message, exc.details
        if isinstance(exc, TooManyRequests):
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
    elif isinstance(exc, RequestDataTooBig):  # over DATA_UPLOAD_MAX_MEMORY_SIZE
        status_code, code, message, details = (
            413,
            "payload_too_large",
            "Request body too large",
            None,
        )
    elif isinstance(exc, Http404):
        status_code, code, message, details = 404, NotFound.code, NotFound.message, None
    elif isinstance(exc, DjangoPermissionDenied):
        status_code, code, message, details = 403, "forbidden", "Forbidden", None
    elif isinstance(exc, DjangoValidationError):
        status_code, code, message = 400, InvalidRequest.code, InvalidRequest.message
        details = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
    elif isinstance(exc, drf.APIException):
        status_code = exc.status_code
        code, message = next(
            ((c, m) for cls, c, m in _DRF_ERRORS if isinstance(exc, cls)),
            (exc.default_code, str(exc.default_detail)),
        )
        details = _drf_details(exc)
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header
        if isinstance(exc, drf.Throttled) and exc.wait is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.wait)))
    else:
        # A bug: log it with the request id, reveal nothing of it to the caller.
        logger.exception("Unhandled error in %s", context.get("view").__class__.__name__)
        status_code, code, message, details = 500, "internal_error", "Internal server error", None
    return Response(
        error_body(code=code, message=message, details=details, status=status_code),
        status=status_code,
        headers=headers,
    )


def _drf_details(exc: drf.APIException):
    if isinstance(exc, drf.ValidationError):
        return exc.detail
    if isinstance(exc, drf.ParseError):
        return "Request body is not valid JSON"
    return None
