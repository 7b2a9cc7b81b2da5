"""The base class of every API view, and the API's plain-Django views (health, errors)."""

import logging

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from django_guid import get_guid
from rest_framework import exceptions
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.response import Response
from rest_framework.views import APIView

from api.concurrency import slot_give_back, slot_take
from api.exceptions import error_body
from api.idempotency import (
    HEADER,
    METHODS,
    StoredResponse,
    idempotency_claim,
    idempotency_complete,
    idempotency_release,
    request_fingerprint,
    validate_key,
)
from api.key_permissions import PermissionDenied, is_allowed, permission_for
from api.modes import test_mode_meta
from api.throttling import throttle_unauthenticated
from api.versions import answer_in_version, request_version

logger = logging.getLogger(__name__)


class _Replay(Exception):
    def __init__(self, stored: StoredResponse):
        self.stored = stored


class ApiView(APIView):
    """Authentication, throttling and `Idempotency-Key` handling for every API endpoint."""

    _idempotency_claim = None
    _supplier_slot = None
    # The methods of the view that wait on a flight supplier: each takes one of its team's
    # slots for such requests (api/concurrency.py) for as long as it runs.
    supplier_methods: tuple[str, ...] = ()
    # What a restricted API key needs to use the view (api/key_permissions.py): reads of
    # `permission_resource` need `<resource>:read`, other methods `<resource>:write`;
    # `method_permissions` names another one for a method. Every API view declares one.
    permission_resource: str | None = None
    method_permissions: dict[str, str] = {}

    def perform_authentication(self, request):
        # A request without a usable key never reaches the throttles (its 401 comes first):
        # count it here, per client address, so that guessing keys is limited too.
        try:
            user = request.user
        except AuthenticationFailed:
            throttle_unauthenticated(request)
            raise
        if user is None:
            throttle_unauthenticated(request)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # authenticates and throttles first
        method = request.method.lower()
        if method not in self.http_method_names or not hasattr(self, method):
            # Before anything about the request's key or body: the method is the first answer.
            raise exceptions.MethodNotAllowed(request.method)
        # Before the body and the Idempotency-Key: a key refused here claims nothing. Only a
        # restricted key is asked about (a full-access key, every key made before, skips it).
        granted = getattr(request.auth, "permissions", None)
        if granted:
            permission = self.required_permission(request.method)
            if not is_allowed(granted, permission):
                raise PermissionDenied(permission)
        if request.method in METHODS:
            self._claim_idempotency_key(request)
        if request.method in self.supplier_methods:
            self._supplier_slot = slot_take(
                team_id=request.user.team_id, live_mode=request.user.live_mode
            )

    @classmethod
    def required_permission(cls, method: str) -> str:
        return permission_for(
            resource=cls.permission_resource, overrides=cls.method_permissions, method=method
        )

    def _claim_idempotency_key(self, request) -> None:
        # Parse the body now (api/parsers.py): a malformed one never claims a key. `body`
        # first, so that the raw bytes stay readable for the key's fingerprint.
        request._request.body  # noqa: B018 - read and kept
        request.data  # noqa: B018 - parsed for its errors
        key = request.headers.get(HEADER)
        if key is None:
            return
        outcome = idempotency_claim(
            team=request.user.team,
            live_mode=request.user.live_mode,
            key=validate_key(key),
            fingerprint=request_fingerprint(
                method=request.method, path=request.get_full_path(), body=request._request.body
            ),
        )
        if isinstance(outcome, StoredResponse):
            raise _Replay(outcome)  # a replay waits on nobody: it takes no slot
        self._idempotency_claim = outcome

    def handle_exception(self, exc):
        if isinstance(exc, _Replay):
            return Response(
                _replayed(exc.stored.body),
                status=exc.stored.status,
                headers={"Idempotent-Replayed": "true"},
            )
        return super().handle_exception(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        slot, self._supplier_slot = self._supplier_slot, None
        if slot is not None:
            slot_give_back(slot)
        window = getattr(request, "rate_limit_window", None)
        if window is not None:  # every authenticated answer says where its quota stands
            for header, value in window.headers().items():
                response[header] = value
        claim, self._idempotency_claim = self._idempotency_claim, None
        if claim is not None:
            # A 5xx, or a 429 ("retry after"), is not the request's answer: a retry runs again.
            if response.status_code >= 500 or response.status_code == 429:
                idempotency_release(claim=claim)
            else:
                idempotency_complete(claim=claim, status=response.status_code, body=response.data)
        # Stored above in the latest version: a replay is rendered in its own request's.
        if response.status_code < 400 and getattr(response, "data", None) is not None:
            response.data = answer_in_version(
                response.data,
                method=request.method,
                url_name=getattr(request._request.resolver_match, "url_name", None),
                version=request_version(request._request),
            )
        return response


def _replayed(body):
    """A replayed error is the first answer's, but for `request_id`: it is this request's (its
    `X-Request-Id`), as in every error body."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return {**body, "error": {**body["error"], "request_id": get_guid()}}
    return body


def envelope(data, *, status: int = 200, **extra) -> Response:
    """The spec's `{success, data}` wrapper (list endpoints add `pagination` via `extra`)."""
    return Response({"success": True, "data": data, **extra}, status=status)


# --- Plain Django views ----------------------------------------------------------------------


def json_error(request, *, status: int, code: str, message: str, details=None) -> JsonResponse:
    body = error_body(code=code, message=message, details=details, status=status)
    meta = test_mode_meta(request)
    if meta is not None:
        body["_meta"] = meta
    return JsonResponse(body, status=status)


@csrf_exempt  # an unknown path is 404 whatever the method (not Django's CSRF page)
def api_not_found(request, *args, **kwargs):
    return json_error(request, status=404, code="not_found", message="Not found")


def handler404(request, exception=None):
    if request.path.startswith("/admin/"):
        return defaults.page_not_found(request, exception)
    return api_not_found(request)


def handler400(request, exception=None):
    if request.path.startswith("/admin/"):
        return defaults.bad_request(request, exception)
    return json_error(request, status=400, code="bad_request", message="Bad request")


def handler403(request, exception=None):
    if request.path.startswith("/admin/"):
        return defaults.permission_denied(request, exception)
    return json_error(request, status=403, code="forbidden", message="Forbidden")


def handler500(request):
    if request.path.startswith("/admin/"):
        return defaults.server_error(request)
    return json_error(request, status=500, code="internal_error", message="Internal server error")


def health(request):
    """Liveness and readiness: the database always; the cache and broker when configured."""
    probes = {"database": _probe_database, "cache": _probe_cache}
    if settings.REDIS_URL:
        probes["broker"] = _probe_broker
    checks = {name: _run_probe(probe) for name, probe in probes.items()}
    healthy = all(result == "ok" for result in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )


def _probe_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _probe_cache():
    cache.set("health-probe", "ok", 5)
    if cache.get("health-probe") != "ok":
        raise RuntimeError("the cache did not return what was written")


def _probe_broker():
    # The project's Celery app (config/celery_app.py, loaded by config/__init__.py with Django),
    # found as celery's current app so that the API does not import config: Celery's Django
    # fixup makes it the default app of every thread.
    with current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)


def _run_probe(probe) -> str:
    try:
        probe()
    except Exception as exc:  # a health check reports failures, it does not raise them
        logger.warning("Health check %s failed: %s", probe.__name__, exc)
        return "unavailable"
    return "ok"
