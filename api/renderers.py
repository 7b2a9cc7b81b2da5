from drf_orjson_renderer.renderers import ORJSONRenderer

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
