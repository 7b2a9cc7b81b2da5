"""Domain errors and their catalogue. Views and services raise `ApplicationError` subclasses;
nobody builds a 4xx response by hand: the API renders every error in one shape
(api/exceptions.py, `api_exception_handler` and `error_body`):

    {"success": false, "error": {"code": "...", "message": "...", "details": ...,
                                 "request_id": "..."}}

Every (code, status) an answer can carry is in `ERROR_CATALOGUE`, with its message(s): each
`ApplicationError` subclass registers itself; codes given at the raise site (the suppliers')
and those of plain Django views register with `register_error`. The OpenAPI schema and
docs/errors.md (`manage.py error_catalogue`, api/error_catalogue.py) are made from it.
"""

import re
from dataclasses import dataclass, field

from rest_framework import status

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
