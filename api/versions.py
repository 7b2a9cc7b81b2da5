"""Dated API versions (docs/changelog.md): which version a request is answered in, and the one
chain of changes that renders an older version's shapes.

- A version is the date it was released (`YYYY-MM-DD`). A request may name one in the
  `Api-Version` header; without it, the version its key's team is pinned to applies (a request
  with no usable key: the latest). Every answer under /api/ says which in `Api-Version`
  (api/middleware.py); an unknown version is `400 invalid_api_version`.
- The views and payloads make the latest shapes. Each `VersionChange` knows how to render the
  shape of the version before it (`answer`, `event`), so an answer walks back the chain from
  the latest to the request's version, as Stripe's version change modules do.
- An event's data is stored in the shape of the version it was written in (the event's
  `api_version`); a delivery renders it in the endpoint's version, walking the chain forward
  (`event_forward`) or back.
- The plumbing knows neither bookings nor webhooks: a change names the answers it concerns by
  (method, URL name) and the events by type prefix.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from api.modes import api_version_of_credentials
from core.exceptions import ApplicationError

HEADER = "Api-Version"


class InvalidApiVersion(ApplicationError):
    """`Api-Version` names no version of the API (docs/changelog.md lists them)."""

    code = "invalid_api_version"
    message = "Invalid API version"


# --- The changes, newest last ---------------------------------------------------------------


def _renamed(obj: Any, old: str, new: str) -> Any:
    """`obj` with its key `old` named `new`, in the same place; anything else as it is."""
    if not isinstance(obj, dict) or old not in obj:
        return obj
    return {(new if key == old else key): value for key, value in obj.items()}


def _each_item(body: Any, change: Callable[[Any], Any]) -> Any:
    """An enveloped list answer (`{success, data: [...], pagination}`) with `change` applied to
    each item of `data`."""
    if isinstance(body, dict) and isinstance(body.get("data"), list):
        return {**body, "data": [change(item) for item in body["data"]]}
    return body


@dataclass(frozen=True)
class VersionChange:
    """What `version` changed. `answer` renders a successful answer of one of `answers`
    ((method, URL name)) as the version before had it; `event` and `event_forward` turn an
    event's `data.object` or `data.previous_attributes` (of a type starting with one of
    `event_types`) into the version before's shape, and back."""

    version: str
    summary: str | Promise  # the panel shows it (Portuguese first); docs/changelog.md says more
    answers: frozenset[tuple[str, str]]
    answer: Callable[[Any], Any]
    event_types: tuple[str, ...]
    event: Callable[[dict], dict]
    event_forward: Callable[[dict], dict]

    def concerns_event(self, event_type: str) -> bool:
        return event_type.startswith(self.event_types)


FIRST_VERSION = "2026-11-22"

CHANGES: tuple[VersionChange, ...] = (
    VersionChange(
        version="2026-11-28",
        summary=_(
            "A booking's currency is named total_currency wherever its total_amount is: in the "
            "items of the booking list (GET /bookings) and in booking events, as in the booking "
            "object. It was named currency."
        ),
        answers=frozenset({("GET", "bookings")}),
        answer=lambda body: _each_item(body, lambda i: _renamed(i, "total_currency", "currency")),
        event_types=("booking.",),
        event=lambda obj: _renamed(obj, "total_currency", "currency"),
        event_forward=lambda obj: _renamed(obj, "currency", "total_currency"),
    ),
)

VERSIONS: tuple[str, ...] = (FIRST_VERSION, *(change.version for change in CHANGES))
LATEST_VERSION = VERSIONS[-1]


def latest_version() -> str:
    """The version a new team is pinned to (a callable default: migrations name it, not the
    date of the day they were made)."""
    return LATEST_VERSION


def is_known(version: str | None) -> bool:
    return version in VERSIONS


def check_version(version: str) -> str:
    if not is_known(version):
        raise InvalidApiVersion(details={HEADER: unknown_version_message(version)})
    return version


def unknown_version_message(version: str) -> str:
    return f"Unknown version {version!r}; the versions are {', '.join(VERSIONS)}."


def changes_since(version: str) -> list[VersionChange]:
    """What a team on `version` gets by moving to the latest, oldest first."""
    return [change for change in CHANGES if change.version > version]


# --- The version of a request ---------------------------------------------------------------


def request_version(django_request: HttpRequest) -> str:
    """The version a request is answered in: its `Api-Version` if known, else its key's team's
    pin, else the latest. Kept on the request once a key has been read (the pin is the team's
    as the request's own key read it)."""
    cached = getattr(django_request, "_api_version", None)
    if cached is not None:
        return cached
    named = django_request.headers.get(HEADER)
    version = named if is_known(named) else api_version_of_credentials(django_request)
    chosen = version if version is not None and is_known(version) else LATEST_VERSION
    django_request._api_version = chosen  # type: ignore[attr-defined]
    return chosen


def requested_unknown_version(django_request: HttpRequest) -> str | None:
    """The `Api-Version` a request names when it is no version, else None."""
    named = django_request.headers.get(HEADER)
    return None if named is None or is_known(named) else named


# --- Rendering in a version -----------------------------------------------------------------


def answer_in_version(body: Any, *, method: str, url_name: str | None, version: str) -> Any:
    """A successful answer (made in the latest version) as `version` renders it."""
    for change in reversed(changes_since(version)):
        if (method, url_name) in change.answers:
            body = change.answer(body)
    return body


def event_in_version(payload: dict, *, version: str) -> dict:
    """An event payload (`webhooks.payloads.event_object`: data in the shape of its
    `api_version`) rendered in `version`, saying so in its `api_version`."""
    written_in, event_type = payload["api_version"], payload["type"]
    data = dict(payload["data"])
    steps: list[Callable[[dict], dict]]
    if written_in <= version:
        steps = [
            c.event_forward
            for c in CHANGES
            if written_in < c.version <= version and c.concerns_event(event_type)
        ]
    else:
        steps = [
            c.event
            for c in reversed(CHANGES)
            if version < c.version <= written_in and c.concerns_event(event_type)
        ]
    for step in steps:
        for part in ("object", "previous_attributes"):
            data[part] = step(data[part])
    return {**payload, "api_version": version, "data": data}


# --- The OpenAPI schema ---------------------------------------------------------------------

_REQUEST_HEADER = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "description": (
        "The API version to answer in (docs/changelog.md). Without it, the version the team is "
        "pinned to. An unknown version is `400 invalid_api_version`."
    ),
    "schema": {"type": "string", "enum": list(VERSIONS)},
}
_RESPONSE_HEADER = {
    "description": "The API version the answer is in.",
    "schema": {"type": "string", "enum": list(VERSIONS)},
}


def document_api_versions(result, generator, request, public):
    """drf-spectacular postprocessing hook: `info.version` is the latest dated version; every
    operation takes `Api-Version` and every answer says it."""
    result.setdefault("info", {})["version"] = LATEST_VERSION
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            parameters = operation.setdefault("parameters", [])
            if not any(p.get("name") == HEADER and p.get("in") == "header" for p in parameters):
                parameters.append(dict(_REQUEST_HEADER))
            for response in operation["responses"].values():
                response.setdefault("headers", {})[HEADER] = dict(_RESPONSE_HEADER)
    return result
