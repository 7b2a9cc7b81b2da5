from drf_orjson_renderer.renderers import ORJSONRenderer
from rest_framework.negotiation import DefaultContentNegotiation

from api.modes import test_mode_meta


class ApiJSONRenderer(ORJSONRenderer):
    """orjson rendering, adding `_meta` to every response made with a test key."""

    def render(self, data, media_type=None, renderer_context=None):
        request = (renderer_context or {}).get("request")
        if isinstance(data, dict) and request is not None:
            meta = test_mode_meta(request._request)
            if meta is not None:
                data = {**data, "_meta": meta}
        return super().render(data, media_type, renderer_context)


class ApiContentNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, answered at once for what clients send nearly always (no `Accept`,
    `*/*` or `application/json`, and no `?format=`): the one renderer, `application/json`, as
    DRF's own answer would be (api/tests/test_content_negotiation.py compares them). Anything
    else goes through DRF's (a `406` included). About 6 µs of the balance's CPU."""

    def select_renderer(self, request, renderers, format_suffix=None):
        if (
            len(renderers) == 1
            and not format_suffix
            and request.META.get("HTTP_ACCEPT", "*/*") in _PLAIN_ACCEPT
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)


_PLAIN_ACCEPT = frozenset({"*/*", "application/json"})  # not "": DRF refuses an empty one
