"""Duffel's HTTP client (duffel_api's `http_client.py`): one `requests.Session` carrying the
team's access token and the API version, the timeouts, and what a failed, lost or unreadable
answer becomes (the codes of `errors`). The access token lives only in the session's
Authorization header: it is never logged, put in an error or in `repr`."""

import logging
from decimal import Decimal
from urllib.parse import quote

import requests
from django.conf import settings
from urllib3.exceptions import MaxRetryError, NewConnectionError

from flights.suppliers.base import SupplierError
from flights.suppliers.duffel.errors import (
    AUTH_FAILED,
    BAD_RESPONSE,
    FORBIDDEN,
    KNOWN_ERRORS,
    NOT_FOUND,
    RATE_LIMITED,
    READ,
    READ_ERRORS,
    REFUSED,
    UNAVAILABLE,
    UNCERTAIN,
    UNCERTAIN_BAD_RESPONSE,
    VALIDATION,
    failure,
    supplier_error,
)

# One logger for the package, under the name it had as one module.
logger = logging.getLogger("flights.suppliers.duffel")

API_VERSION = "v2"
CONNECT_TIMEOUT_SECONDS = 5
SEARCH_TIMEOUT = (CONNECT_TIMEOUT_SECONDS, 30)
# Duffel asks for at least 130 s: an airline may take up to 120 s to confirm an order.
ORDER_TIMEOUT = (CONNECT_TIMEOUT_SECONDS, 130)


class DuffelClient:
    def __init__(
        self,
        *,
        access_token: str,
        base_url: str | None = None,
        session: requests.Session | None = None,
    ):
        self.base_url = (base_url or settings.DUFFEL_BASE_URL).rstrip("/")
        self._has_token = bool(access_token)
        self.session = session or requests.Session()
        self.session.headers.update(
            {
                "Authorization": f"Bearer {access_token}",
                "Duffel-Version": API_VERSION,
                "Accept": "application/json",
                "Accept-Encoding": "gzip",
                "Content-Type": "application/json",
                "User-Agent": "agency-backoffice",
            }
        )

    def __repr__(self) -> str:
        return f"<DuffelClient {self.base_url}>"  # never the token

    def call(self, method: str, path: str, **kwargs) -> dict:
        """The `data` object of the answer to a call (`send`'s arguments), or SupplierError."""
        response = self.send(method, path, **kwargs)
        return data_of(response, effect=kwargs.get("effect", READ))

    def send(
        self,
        method: str,
        path: str,
        *,
        timeout: tuple[int, int],
        body: dict | None = None,
        params: dict | None = None,
        not_found: tuple[str, str] = NOT_FOUND,
        effect: str = READ,
    ) -> requests.Response:
        """The answer to a call, or SupplierError. `effect`: what the call changes at the
        airline (READ nothing; CHANGE or OUTCOME something), so whether a lost answer may hide
        a change."""
        if not self._has_token:
            raise supplier_error(AUTH_FAILED, {"supplier": "duffel", "reason": "no access token"})
        try:
            response = self.session.request(
                method,
                f"{self.base_url}{path}",
                params=params,
                json=None if body is None else {"data": body},
                timeout=timeout,
            )
        except requests.RequestException as exc:
            logger.warning("Duffel %s %s failed: %s", method, path, type(exc).__name__)
            details = {"supplier": "duffel", "reason": type(exc).__name__}
            if _never_sent(exc):  # nothing reached Duffel: nothing can have happened
                raise supplier_error(UNAVAILABLE, details) from exc
            raise failure(effect, UNAVAILABLE, UNCERTAIN, details) from exc
        if response.status_code >= 400:
            error = http_error(response, not_found=not_found, effect=effect)
            logger.warning(
                "Duffel %s %s answered %s (%s, request %s)",
                method,
                path,
                response.status_code,
                error.code,
                (error.details or {}).get("request_id"),
            )
            raise error
        return response


def _never_sent(exc: requests.RequestException) -> bool:
    """Whether the request certainly never reached Duffel: no connection (a connect timeout,
    refused, a name that does not resolve, a failed TLS handshake) or a URL we cannot send to.
    A read timeout or a connection dropped after sending may hide a change."""
    if isinstance(
        exc,
        requests.ConnectTimeout
        | requests.exceptions.SSLError
        | requests.exceptions.InvalidURL
        | requests.exceptions.MissingSchema
        | requests.exceptions.InvalidSchema,
    ):
        return True
    if isinstance(exc, requests.ConnectionError):
        reason = exc.args[0] if exc.args else None
        if isinstance(reason, MaxRetryError):
            reason = reason.reason
        return isinstance(reason, NewConnectionError)  # refused, DNS (NameResolutionError)
    return False


def path_part(identifier: str) -> str:
    """An id as one URL path segment (nothing in it can change the path)."""
    return quote(str(identifier), safe="")


# --- Answers -----------------------------------------------------------------------------------


def json_or_none(response: requests.Response):
    try:
        return response.json(parse_float=Decimal)  # exact numbers, never floats
    except ValueError:  # not JSON: a proxy's HTML page, a truncated body
        return None


def data_of(response: requests.Response, *, effect: str = READ) -> dict:
    body = json_or_none(response)
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        raise failure(
            effect,
            BAD_RESPONSE,
            UNCERTAIN_BAD_RESPONSE,
            {"supplier": "duffel", "status": response.status_code, "reason": "no data object"},
        )
    return data


def read(mapper, data, *args, effect: str = READ):
    """mapper(data, *args), any missing or malformed field being a SupplierError."""
    try:
        return mapper(data, *args)
    except READ_ERRORS as exc:
        logger.warning("Unreadable Duffel answer for %s: %r", mapper.__name__, exc)
        raise failure(
            effect,
            BAD_RESPONSE,
            UNCERTAIN_BAD_RESPONSE,
            {
                "supplier": "duffel",
                "id": data.get("id") if isinstance(data, dict) else None,
                "reason": repr(exc),
            },
        ) from exc


def http_error(
    response: requests.Response,
    *,
    not_found: tuple[str, str] = NOT_FOUND,
    effect: str = READ,
) -> SupplierError:
    body = json_or_none(response)
    body = body if isinstance(body, dict) else {}
    errors = [e for e in body.get("errors") or [] if isinstance(e, dict)]
    meta = body.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    details = {
        "supplier": "duffel",
        "status": response.status_code,
        "request_id": meta.get("request_id") or response.headers.get("x-request-id"),
        "errors": [_error_summary(e) for e in errors],
    }
    if response.status_code >= 500 and not any(e.get("code") in KNOWN_ERRORS for e in errors):
        # The airline may have acted before the error (Duffel's own advice: check the order).
        return failure(effect, UNAVAILABLE, UNCERTAIN, details)
    return supplier_error(_classify(response.status_code, errors, not_found), details)


def _classify(status: int, errors: list[dict], not_found: tuple[str, str]) -> tuple[str, str]:
    for error in errors:
        if error.get("code") in KNOWN_ERRORS:
            return KNOWN_ERRORS[error["code"]]
    if status == 401:
        return AUTH_FAILED
    if status == 403:
        return FORBIDDEN
    if status == 404:
        return not_found
    if status == 429:
        return RATE_LIMITED
    if status == 422 and any(e.get("type") == "validation_error" for e in errors):
        return VALIDATION
    if status >= 500:
        return UNAVAILABLE
    return REFUSED


def _error_summary(error: dict) -> dict:
    source = error.get("source")
    source = source if isinstance(source, dict) else {}
    return {
        "type": error.get("type"),
        "code": error.get("code"),
        "title": error.get("title"),
        "message": error.get("message"),
        "field": source.get("pointer") or source.get("field"),
    }
