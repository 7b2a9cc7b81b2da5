"""Test or live mode, as the API's plumbing needs it: the `_meta` of every answer to a request
made with a test key (api/renderers.py), the error views outside DRF (api/apis.py
`json_error`), and the rate limits of a team and mode (api/throttling.py); and the API version
a key's team is pinned to (api/versions.py).

The API keys that decide the mode are agencies' (agencies/authentication.py), and agencies
build on this app: the plumbing does not import them, it asks the authentication class that
REST_FRAMEWORK's DEFAULT_AUTHENTICATION_CLASSES names, which is an `ApiAuthentication`.
"""

from typing import cast

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication
from rest_framework.settings import api_settings

TEST_MODE_MESSAGE = (
    "Test mode: sandbox data. The wallet balance is a fictitious 5000.00 BRL, no real payment "
    "is charged and no real ticket is issued."
)


class ApiAuthentication(BaseAuthentication):
    """What the API's plumbing needs of the API's authentication:

    - `request.user`, once authenticated, has `team`, `team_id` and `live_mode`: idempotency
      keys and rate limits are per team and mode;
    - `live_mode_of` tells the mode a request's credentials name, also for a request that DRF
      did not authenticate (Django's error views) or refused (a revoked test key is still a
      test key).
    """

    @classmethod
    def live_mode_of(cls, django_request: HttpRequest) -> bool | None:
        """True (live) or False (test) for a request whose credentials name a mode, else None."""
        raise NotImplementedError

    @classmethod
    def api_version_of(cls, django_request: HttpRequest) -> str | None:
        """The API version the team of a request's usable key is pinned to, else None
        (api/versions.py: the latest then)."""
        return None


def api_version_of_credentials(django_request: HttpRequest) -> str | None:
    return _authentication().api_version_of(django_request)


def test_mode_meta(django_request: HttpRequest) -> dict | None:
    if _authentication().live_mode_of(django_request) is not False:
        return None
    return {"test_mode": True, "message": TEST_MODE_MESSAGE}


def _authentication() -> type[ApiAuthentication]:
    """The configured `ApiAuthentication` (DRF imports the classes once and keeps them)."""
    # The stubs type the setting as written (dotted names); DRF has imported them.
    for authentication in cast(list[type], api_settings.DEFAULT_AUTHENTICATION_CLASSES):
        if issubclass(authentication, ApiAuthentication):
            return authentication
    raise ImproperlyConfigured(
        "REST_FRAMEWORK's DEFAULT_AUTHENTICATION_CLASSES names no api.modes.ApiAuthentication"
    )
