"""Domain errors and the one handler that renders every API error in the same shape:

    {"success": false, "error": {"code": "...", "message": "...", "details": ...}}

Views and services raise `ApplicationError` subclasses; nobody builds a 4xx response by hand.
"""

import logging
import math

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions as drf
from rest_framework import status
from rest_framework.response import Response

logger = logging.getLogger(__name__)


class ApplicationError(Exception):
    status_code: int = status.HTTP_400_BAD_REQUEST
    code = "bad_request"
    message = "Bad request"

    def __init__(self, message: str | None = None, *, code: str | None = None, details=None):
        self.message = message or self.message
        self.code = code or self.code
        self.details = details
        super().__init__(self.message)


class InvalidRequest(ApplicationError):
    code = "invalid_request"
    message = "Invalid request parameters"


class Unauthorized(ApplicationError):
    status_code = status.HTTP_401_UNAUTHORIZED
    code = "unauthorized"
    message = "Unauthorized"


class NotFound(ApplicationError):
    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"
    message = "Not found"


class Conflict(ApplicationError):
    status_code = status.HTTP_409_CONFLICT
    code = "conflict"
    message = "Conflict"


class UnprocessableEntity(ApplicationError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "unprocessable_entity"
    message = "Unprocessable entity"


class TooManyRequests(ApplicationError):
    """A 429 with `Retry-After`: the request may succeed unchanged a little later."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "rate_limited"
    message = "Rate limit exceeded"

    def __init__(self, message: str | None = None, *, retry_after: float, **kwargs):
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


def error_body(*, code: str, message: str, details=None) -> dict:
    return {"success": False, "error": {"code": code, "message": message, "details": details}}


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
        error_body(code=code, message=message, details=details), status=status_code, headers=headers
    )


def _drf_details(exc: drf.APIException):
    if isinstance(exc, drf.ValidationError):
        return exc.detail
    if isinstance(exc, drf.ParseError):
        return "Request body is not valid JSON"
    return None
