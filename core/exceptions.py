"""Domain errors and the one handler that renders every API error in the same shape:

    {"success": false, "error": {"code": "...", "message": "...", "details": ...,
                                 "request_id": "..."}}

Views and services raise `ApplicationError` subclasses; nobody builds a 4xx response by hand.

- `details` has one shape (`error_details`): an object mapping a field path
  (`passengers[1].born_on`, `slices[0].origin`, `Idempotency-Key`, `body`) to a list of
  messages, or null when there is nothing to add.
- `request_id` is the request's `X-Request-Id` (django-guid), so support finds the log lines.
- Every (code, status) an answer can carry is in `ERROR_CATALOGUE`, with its message(s): each
  `ApplicationError` subclass registers itself; codes given at the raise site (the suppliers')
  and those of plain Django views register with `register_error`. The OpenAPI schema
  (core/error_schema.py) and docs/errors.md (`manage.py error_catalogue`) are made from it.
"""

import logging
import math
import re
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django_guid import get_guid
from rest_framework import exceptions as drf
from rest_framework import status
from rest_framework.response import Response

logger = logging.getLogger(__name__)


# --- The catalogue of error codes -------------------------------------------------------------


@dataclass
class CataloguedError:
    code: str
    status: int
    seen: set[str] = field(default_factory=set)  # `{name}` stands for a variable part
    class_message: str | None = None  # the ApplicationError's own message, if a class has it
    description: str = ""
    modules: set[str] = field(default_factory=set)  # where it is raised (for the docs)

    @property
    def message(self) -> str:
        return self.class_message or min(self.seen)

    @property
    def messages(self) -> list[str]:
        """The usual message first, then the others, sorted: the same whatever the order in
        which the registering modules were imported."""
        return [self.message, *sorted(self.seen - {self.message})]

    def matches(self, message: str) -> bool:
        return any(_template(known).fullmatch(message) for known in self.messages)


# (code, status) → entry. A code has one status, except a few supplier codes that also name
# an error of ours (`offer_not_found`: ours is 404, the supplier's refusal 502).
ERROR_CATALOGUE: dict[tuple[str, int], CataloguedError] = {}


def register_error(
    code: str,
    status: int,
    message: str,
    *,
    description: str = "",
    module: str = "",
    default: bool = False,
) -> CataloguedError:
    """Add (code, status, message) to the catalogue. `default`: the code's usual message (an
    ApplicationError's own), whose description also wins over another's."""
    entry = ERROR_CATALOGUE.setdefault((code, status), CataloguedError(code, status))
    entry.seen.add(message)
    if default:
        entry.class_message = message
    if description and (default or not entry.description):
        entry.description = description
    if module:
        entry.modules.add(module)
    return entry


def _template(message: str) -> re.Pattern:
    parts = re.split(r"\{[a-z_]+\}", message)
    return re.compile(".+".join(re.escape(part) for part in parts), re.DOTALL)


class UncataloguedError(AssertionError):
    """An answer with a (code, status, message) missing from ERROR_CATALOGUE (raised only with
    ERROR_CATALOGUE_STRICT, as the tests run, so that the catalogue cannot fall behind)."""


def check_catalogued(*, code: str, status: int, message: str) -> None:
    entry = ERROR_CATALOGUE.get((code, status))
    if entry is None:
        raise UncataloguedError(f"{status} {code!r} is not in the error catalogue")
    if not entry.matches(message):
        raise UncataloguedError(f"{status} {code!r}: message {message!r} is not catalogued")


class ApplicationError(Exception):
    """Subclasses that set `code`, `message` or `status_code` register themselves in the
    catalogue; `messages` lists the other messages a raise site may give."""

    status_code: int = status.HTTP_400_BAD_REQUEST
    code = "bad_request"
    message = "Bad request"
    messages: tuple[str, ...] = ()
    catalogued = True  # False: a base class never raised as such

    def __init__(self, message: str | None = None, *, code: str | None = None, details=None):
        self.message = message or self.message
        self.code = code or self.code
        self.details = details
        super().__init__(self.message)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if {"code", "message", "status_code", "messages"} & set(cls.__dict__) and cls.__dict__.get(
            "catalogued", True
        ):
            cls._register(description=cls.__doc__ or "")

    @classmethod
    def _register(cls, *, description: str) -> None:
        description = " ".join(description.strip().split("\n\n")[0].split())
        register_error(
            cls.code,
            cls.status_code,
            cls.message,
            description=description,
            module=cls.__module__,
            default=True,
        )
        for message in cls.messages:
            register_error(cls.code, cls.status_code, message, module=cls.__module__)


ApplicationError._register(description="A malformed request that Django refused (its 400).")


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
    catalogued = False


class UnprocessableEntity(ApplicationError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "unprocessable_entity"
    message = "Unprocessable entity"
    catalogued = False


class TooManyRequests(ApplicationError):
    """A 429 with `Retry-After`: the request may succeed unchanged a little later."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "rate_limited"
    message = "Rate limit exceeded"

    def __init__(self, message: str | None = None, *, retry_after: float, **kwargs):
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


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
        },
    }


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
