"""Cross-cutting HTTP behaviour: the language and time zone of each request (the API's own
middleware, no caching of its answers and what every API request goes through first, is in
api/middleware.py).

People (the panel, payment pages) get Portuguese by default, English if they chose it (the
panel's language switch, kept in a cookie) or their browser asks for it before they choose;
times in São Paulo. The API gets neither: its messages are the spec's English and its times UTC,
whatever Accept-Language says, and its responses do not vary by language.
"""

from datetime import UTC
from functools import wraps

from django.conf import settings
from django.middleware import locale
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers


def is_api_request(request) -> bool:
    return request.path_info.startswith(settings.API_PATH_PREFIX) and not getattr(
        request, "people_facing", False
    )


class LocaleMiddleware(locale.LocaleMiddleware):
    def process_request(self, request):
        if is_api_request(request):
            translation.activate(settings.API_LANGUAGE)
            request.LANGUAGE_CODE = settings.API_LANGUAGE
            timezone.activate(UTC)
            return
        super().process_request(request)
        timezone.activate(settings.TIME_ZONE)

    def process_response(self, request, response):
        if not is_api_request(request):
            response = super().process_response(request, response)
        # Nothing leaks into what this thread runs next (a test, an eager task): the defaults
        # (settings.LANGUAGE_CODE, settings.TIME_ZONE) apply again.
        translation.deactivate()
        timezone.deactivate()
        return response  # API: no Content-Language, no Vary: Accept-Language


def people_facing(view):
    """For the few pages under /api/ that people open in a browser (the boleto page): they are
    rendered in the reader's language and in São Paulo time, like the panel."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        request.people_facing = True
        language = translation.get_language_from_request(request)
        with translation.override(language), timezone.override(settings.TIME_ZONE):
            request.LANGUAGE_CODE = language
            response = view(request, *args, **kwargs)
            if hasattr(response, "render") and callable(response.render):
                response = response.render()
        response.headers.setdefault("Content-Language", language)
        patch_vary_headers(response, ["Accept-Language", "Cookie"])
        return response

    return wrapper
